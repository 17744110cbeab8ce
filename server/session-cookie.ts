import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionCookie } from '../routers/context.ts';

/** With the __Host- prefix the browser insists on Secure, path / and no Domain. */
const SECURE_NAME = '__Host-session';
/** Plain http on loopback (local development) cannot carry a Secure cookie. */
const LOCAL_NAME = 'session';

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

function secureContext(request: FastifyRequest): boolean {
  return request.protocol === 'https' || !LOOPBACK.test(request.hostname.replace(/:\d+$/, ''));
}

/** The session id the request carried in its cookie (the secure name first). */
export function sessionToken(request: FastifyRequest): string | null {
  return request.cookies[SECURE_NAME] ?? (secureContext(request) ? undefined : request.cookies[LOCAL_NAME]) ?? null;
}

/**
 * The dashboard's session cookie: HttpOnly, SameSite=Lax, Secure and __Host- prefixed except on
 * plain-http loopback. Read and decided only when a procedure uses it (key requests never do).
 */
export function sessionCookie(request: FastifyRequest, reply: FastifyReply): SessionCookie {
  const options = () => {
    const secure = secureContext(request);
    return { name: secure ? SECURE_NAME : LOCAL_NAME, attributes: { path: '/', httpOnly: true, secure, sameSite: 'lax' } as const };
  };
  return {
    get token() {
      return sessionToken(request);
    },
    set: (session) => {
      const { name, attributes } = options();
      reply.setCookie(name, session.token, { ...attributes, expires: new Date(session.expiresAt) });
    },
    clear: () => {
      const { name, attributes } = options();
      reply.clearCookie(name, attributes);
    },
  };
}

/**
 * Cross-site request forgery: a cookie-authenticated mutation must come from this origin. Browsers
 * send Origin on every POST; tRPC mutations are JSON, which no form can send without a preflight.
 */
export function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  return typeof origin === 'string' && origin === `${request.protocol}://${request.host}`;
}
