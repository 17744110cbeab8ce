import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

// The headers this service asks of the sites it scans, on every answer it gives. API answers are
// JSON that no browser should render, frame or cache; the docs page gets a CSP that lets Swagger UI
// load its own script and styles from /docs and nothing else.

const API_CSP = { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] };
export const DOCS_CSP = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  // Swagger UI sets style attributes from its React components.
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  fontSrc: ["'self'"],
  objectSrc: ["'none'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
};

const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()';

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: API_CSP },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    strictTransportSecurity: { maxAge: 63_072_000, includeSubDomains: true },
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    // Answers carry tenant data; only the docs' static assets say otherwise.
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}

/** The same headers for answers made outside Fastify's hooks (router errors). */
export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'strict-transport-security': 'max-age=63072000; includeSubDomains',
  'permissions-policy': PERMISSIONS_POLICY,
  'cache-control': 'no-store',
};

/**
 * The same headers as raw lines, for answers Node's HTTP parser gives before Fastify sees a request
 * (431, 408, 400 on a malformed request line).
 */
export const RAW_SECURITY_HEADERS = Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}`);
