import { fastifyCookie } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionCookie } from '../routers/context.ts';
import type { NewSession } from '../services/accounts.ts';

/** With the __Host- prefix the browser insists on Secure, path / and no Domain. */
const SECURE_NAME = '__Host-session';
/** Plain http on loopback (local development) cannot carry a Secure cookie. */
const LOCAL_NAME = 'session';

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

function secureContext(request: FastifyRequest): boolean {
  return request.protocol === 'https' || !LOOPBACK.test(request.hostname.replace(/:\d+$/, ''));
}

/**
 * The session id the request carried in its cookie (the secure name first). Cookies are parsed
 * here, when a dashboard call asks, not by the plugin's hook on every request: agents send none.
 */
export function sessionToken(request: FastifyRequest): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  const cookies = fastifyCookie.parse(header);
  return cookies[SECURE_NAME] ?? (secureContext(request) ? undefined : cookies[LOCAL_NAME]) ?? null;
}

/**
 * The dashboard's session cookie: HttpOnly, SameSite=Lax, Secure and __Host- prefixed except on
 * plain-http loopback. Read and decided only when a procedure uses it (key requests never do).
 */
class RequestSessionCookie implements SessionCookie {
  constructor(
    private readonly request: FastifyRequest,
    private readonly reply: FastifyReply,
  ) {}

  get token(): string | null {
    return sessionToken(this.request);
  }

  set(session: NewSession): void {
    const { name, attributes } = this.options();
    this.reply.header(
      'set-cookie',
      fastifyCookie.serialize(name, session.token, { ...attributes, expires: new Date(session.expiresAt) }),
    );
  }

  /** Expired and empty, with the same name and attributes, so the browser drops it. */
  clear(): void {
    const { name, attributes } = this.options();
    this.reply.header(
      'set-cookie',
      fastifyCookie.serialize(name, '', { ...attributes, expires: new Date(0), maxAge: 0 }),
    );
  }

  private options() {
    const secure = secureContext(this.request);
    return {
      name: secure ? SECURE_NAME : LOCAL_NAME,
      attributes: { path: '/', httpOnly: true, secure, sameSite: 'lax' } as const,
    };
  }
}

export const sessionCookie = (request: FastifyRequest, reply: FastifyReply): SessionCookie =>
  new RequestSessionCookie(request, reply);

/**
 * Cross-site request forgery: a cookie-authenticated mutation must come from this origin. Browsers
 * send Origin on every POST; tRPC mutations are JSON, which no form can send without a preflight.
 */
export function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  return typeof origin === 'string' && origin === `${request.protocol}://${request.host}`;
}
