import type { FastifyInstance, FastifyReply } from 'fastify';

// The headers this service asks of the sites it scans, on every answer it gives. API answers are
// JSON that no browser should render, frame or cache; the docs page gets a CSP that lets Swagger UI
// load its own script and styles from /docs and nothing else. One table serves every answer: those
// made through Fastify's hooks, router errors and what Node's parser refuses before Fastify.

const csp = (directives: Record<string, string>) =>
  Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`)
    .join('; ');

const API_CSP = csp({
  'default-src': "'none'",
  'frame-ancestors': "'none'",
  'base-uri': "'none'",
  'form-action': "'none'",
});

const DOCS_CSP = csp({
  'default-src': "'none'",
  'script-src': "'self'",
  // Swagger UI sets style attributes from its React components.
  'style-src': "'self' 'unsafe-inline'",
  'img-src': "'self' data:",
  'connect-src': "'self'",
  'font-src': "'self'",
  'object-src': "'none'",
  'frame-ancestors': "'none'",
  'base-uri': "'none'",
  'form-action': "'none'",
});

/** The dashboard: its own scripts, styles and calls only; nothing inline, nothing from elsewhere. */
const DASHBOARD_CSP = csp({
  'default-src': "'none'",
  'script-src': "'self'",
  'style-src': "'self'",
  'img-src': "'self' data:",
  'connect-src': "'self'",
  'font-src': "'self'",
  'manifest-src': "'self'",
  'object-src': "'none'",
  'frame-ancestors': "'none'",
  'base-uri': "'none'",
  'form-action': "'self'",
});

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': API_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'strict-transport-security': 'max-age=63072000; includeSubDomains',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
  // Answers carry tenant data; only the docs' static assets say otherwise.
  'cache-control': 'no-store',
};

/** The same headers as raw lines, for answers Node's HTTP parser gives before Fastify sees a request. */
export const RAW_SECURITY_HEADERS = Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}`);

/** The table and the request id, which every answer carries; a handler may override a header (the docs' CSP and caching). */
export const stampAnswerHeaders = (reply: FastifyReply, requestId: string): FastifyReply =>
  reply.headers(SECURITY_HEADERS).header('x-request-id', requestId);

/** Every answer starts with the stamp, set when the request arrives so that refusals carry it too. */
export function registerSecurityHeaders(app: FastifyInstance): void {
  // Callback style: a hook on every request need not cost a promise.
  app.addHook('onRequest', (request, reply, done) => {
    stampAnswerHeaders(reply, request.id);
    done();
  });
}

/** The docs page and its assets: Swagger UI's own scripts and styles may load. */
export const allowDocs = (reply: FastifyReply) => reply.header('content-security-policy', DOCS_CSP);

/** The dashboard's pages and assets (a Fastify reply, or the raw response @fastify/static answers with). */
export function allowDashboard<T extends { setHeader(name: string, value: string): unknown } | FastifyReply>(
  reply: T,
): T {
  if ('header' in reply) reply.header('content-security-policy', DASHBOARD_CSP);
  else reply.setHeader('content-security-policy', DASHBOARD_CSP);
  return reply;
}
