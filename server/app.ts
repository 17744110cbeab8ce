import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import rateLimit from '@fastify/rate-limit';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import type { TRPCError } from '@trpc/server';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { pingDatabase } from '../db/database.ts';
import { DomainError, ERRORS, Forbidden, Invalid, TooManyRequests, Unauthenticated } from '../domain/errors.ts';
import { openApiDocument } from '../openapi/document.ts';
import type { Context } from '../routers/context.ts';
import { appRouter } from '../routers/index.ts';
import { useDutchValidationMessages } from '../routers/locale.ts';
import { authenticateSession, type UserPrincipal } from '../services/accounts.ts';
import { CachedKeyLookup, type ApiKeyPrincipal } from '../services/auth.ts';
import type { ServiceDeps } from '../services/deps.ts';
import type { CounterStore } from '../services/limits/counter-store.ts';
import { counterStoreFor } from '../services/limits/counter-store-for.ts';
import { UsageMeter } from '../services/limits/quotas.ts';
import { collectProcessMetrics, httpRequestDuration, metricsContentType, renderMetrics } from '../services/metrics.ts';
import { registerDocsPage } from './docs-page.ts';
import { registerDashboard } from './dashboard-pages.ts';
import { headersOf, trpcEnvelope } from './error-answers.ts';
import { redactKeys, redactKeyText, urlCarriesKey } from './log-redaction.ts';
import { rateLimitStore } from './rate-limit-store.ts';
import { registerRestRoutes } from './rest.ts';
import { RAW_SECURITY_HEADERS, registerSecurityHeaders, SECURITY_HEADERS } from './security-headers.ts';
import { sameOrigin, sessionCookie, sessionToken } from './session-cookie.ts';
import { registerTrpcFastPath } from './trpc-fast-path.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The agent's key, when the request carried a valid one. */
    principal: ApiKeyPrincipal | null;
    /** The logged-in person, when the request carried a valid session cookie and no key. */
    user: UserPrincipal | null;
  }
}

const BODY_LIMIT = 1024 * 1024;

const FASTIFY_ERRORS: Record<string, string> = {
  FST_ERR_BAD_URL: 'Ongeldige URL.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ERRORS.unsupportedMediaType,
  FST_ERR_CTP_BODY_TOO_LARGE: ERRORS.bodyTooLarge,
  FST_ERR_CTP_EMPTY_JSON_BODY: ERRORS.invalidJson,
  FST_ERR_CTP_INVALID_JSON_BODY: ERRORS.invalidJson,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Ongeldige Content-Length.',
};

type LimitResult = Awaited<ReturnType<ReturnType<FastifyInstance['createRateLimit']>>>;

/** Sets the x-ratelimit-* headers of a per-minute limit; over the limit, 429 with Retry-After. */
function enforceLimit(result: LimitResult, reply: FastifyReply): void {
  if (result.isAllowed) return;
  const window = { limit: result.max, remaining: result.remaining, resetSeconds: result.ttlInSeconds };
  reply.headers({ 'x-ratelimit-limit': String(window.limit), 'x-ratelimit-remaining': String(window.remaining), 'x-ratelimit-reset': String(window.resetSeconds) });
  if (result.isExceeded) {
    throw new TooManyRequests(`${ERRORS.tooManyRequests} Probeer het opnieuw over ${result.ttlInSeconds} seconden.`, result.ttlInSeconds, window);
  }
}

/** The key of an "Authorization: Bearer <key>" header, or null. */
function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match ? match[1]! : null;
}

const CLIENT_ERRORS: Record<number, string> = {
  400: 'Ongeldig HTTP-verzoek.',
  408: 'Het verzoek kwam niet op tijd binnen.',
  413: 'Het verzoek is te groot.',
  431: 'De request headers zijn te groot.',
};

/**
 * Answers what Node's HTTP parser rejects before Fastify sees a request (oversized headers, a
 * request that does not arrive in time, garbage), in the API's error shape and with its headers.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW' ? 413 : 400;
  const body = JSON.stringify({ error: CLIENT_ERRORS[status] });
  const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status]}`, 'content-type: application/json; charset=utf-8', `content-length: ${Buffer.byteLength(body)}`, 'connection: close', ...RAW_SECURITY_HEADERS];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}

/** How many procedure calls a request makes: a /trpc batch ("a,b,c") counts each. */
function callsIn(url: string): number {
  if (!url.startsWith('/trpc/')) return 1;
  const query = url.indexOf('?');
  const path = url.slice('/trpc/'.length, query === -1 ? undefined : query);
  // A comma is written as such or escaped; a path with neither is one call.
  if (!path.includes(',') && !path.includes('%')) return 1;
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Counted as written; tRPC rejects it anyway.
  }
  return Math.max(1, decoded.split(',').length);
}

/**
 * The HTTP server: REST facade, typed RPC at /trpc, the OpenAPI document, docs and health. Background
 * workers are not part of it: the entry point starts them beside it (services/workers.ts).
 */
export async function buildApp(
  deps: ServiceDeps & { counters?: CounterStore; /** Where log lines go; stdout by default. */ logStream?: NodeJS.WritableStream; /** The built dashboard (dist/web by default). */ webRoot?: string },
  options: FastifyServerOptions = {},
): Promise<FastifyInstance> {
  useDutchValidationMessages();
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    trustProxy: deps.config.TRUST_PROXY,
    // Headers and body must arrive within this bound: a client sending a byte every few seconds
    // cannot hold a connection. Node checks the bound on an interval (30 s by default), so the
    // server is made here with a check every second and the headers bound inside the request one.
    serverFactory: (handler) =>
      createServer(
        {
          requestTimeout: deps.config.REQUEST_TIMEOUT,
          headersTimeout: Math.min(60_000, deps.config.REQUEST_TIMEOUT),
          connectionsCheckingInterval: Math.min(1_000, deps.config.REQUEST_TIMEOUT),
        },
        handler,
      ),
    clientErrorHandler: answerClientError,
    // An incoming X-Request-Id (from a proxy or the client) is kept when it is short and plain, so
    // one id follows a request through every log; otherwise the service makes one.
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w.:-]{1,128}$/.test(incoming) ? incoming : randomUUID();
    },
    // Router-level refusals (an undecodable URL, an over-long path parameter) in the API's shape.
    frameworkErrors: (error, request, reply) => {
      const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
      const message = status === 414 ? 'De URL is te lang.' : (FASTIFY_ERRORS[error.code] ?? 'Ongeldig verzoek.');
      return (reply as FastifyReply).code(status).headers(SECURITY_HEADERS).header('x-request-id', request.id).send({ error: message });
    },
    logger: {
      level: deps.config.LOG_LEVEL,
      ...(deps.logStream ? { stream: deps.logStream } : {}),
      // Keys and secrets never reach the log: not in headers, bodies or URLs, nor in any message.
      redact: ['req.headers.authorization', 'req.body.api_key', 'req.body.secret'],
      serializers: {
        // A serializer that throws would end the process, so nothing here assumes a shape.
        req: (req: { method?: string; url?: string; raw?: { url?: string }; ip?: string; socket?: { remotePort?: number } }) => ({
          method: req.method,
          url: redactKeyText(String(req.url ?? req.raw?.url ?? '')),
          remoteAddress: req.ip,
          remotePort: req.socket?.remotePort,
        }),
      },
      formatters: { log: (object: Record<string, unknown>) => redactKeys(object) as Record<string, unknown> },
      hooks: {
        // Messages too: a key pasted into a string never reaches the log line.
        logMethod(args, method) {
          method.apply(this, args.map((arg) => (typeof arg === 'string' ? redactKeyText(arg) : arg)) as Parameters<typeof method>);
        },
      },
    },
    ...options,
  });
  app.decorateRequest('principal', null);
  app.decorateRequest('user', null);
  registerSecurityHeaders(app);
  // Set before anything can refuse the request: error answers keep the headers already set.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  const counters = deps.counters ?? counterStoreFor(deps.config);
  if (!deps.counters) app.addHook('onClose', async () => counters.close());
  // The store belongs to the plugin: createRateLimit() derives its limiters from it (an own store
  // passed there is ignored), so every limiter counts in the CounterStore, shared with Redis.
  await app.register(rateLimit, { global: false, store: rateLimitStore(counters) });
  const ipLimit = app.createRateLimit({ timeWindow: 60_000, max: deps.config.IP_RATE_LIMIT_PER_MINUTE, keyGenerator: (request) => `ip:${request.ip}` });
  const keyLimit = app.createRateLimit({
    timeWindow: 60_000,
    max: (request) => request.principal!.rateLimit,
    keyGenerator: (request) => `key:${request.principal!.actor.id}`,
  });
  const keys = new CachedKeyLookup(deps.db);
  app.addHook('onClose', async () => keys.close());
  // The tenant's monthly API-call quota: counted in memory, written to the database every second
  // and at shutdown (UsageMeter), so a GET writes nothing and the count survives restarts. With
  // Redis, each call is also added to a total there, so instances together stop at the limit.
  const usage = new UsageMeter(deps.db, counters);
  app.addHook('onClose', async () => usage.close());
  // Admission, in this order and in one hook (one promise per request, not five).
  app.addHook('onRequest', async (request, reply) => {
    // 1. Every request, authenticated or not, counts against its address (guards key guessing).
    enforceLimit(await ipLimit(request), reply);
    // 2. A key in the URL ends up in logs, proxies and browser history: refuse it, say where it goes.
    if (urlCarriesKey(request.url)) throw new Invalid(ERRORS.keyInUrl);
    // 3. Who is calling. A protected REST route answers 401 here, before its body is even parsed.
    const token = bearerToken(request.headers.authorization);
    request.principal = token ? await keys.authenticate(token) : null;
    if (!request.principal && request.routeOptions.config?.protect) throw new Unauthenticated(ERRORS.unauthorized);
    if (!request.principal) {
      // People use the dashboard over /trpc with a session cookie; REST stays for keys.
      const session = token || !request.url.startsWith('/trpc/') ? null : sessionToken(request);
      if (!session) return;
      request.user = await authenticateSession(deps.db, session);
      if (request.method !== 'GET' && request.method !== 'HEAD' && !sameOrigin(request)) throw new Forbidden(ERRORS.crossOrigin);
      return;
    }
    // 4. The key's own limit per minute, counted per key id and per procedure call: a /trpc batch
    // of seven counts seven, and one that does not fit in what is left is refused whole.
    const calls = callsIn(request.url);
    for (let call = calls; call > 0; call--) enforceLimit(await keyLimit(request), reply);
    // 5. The monthly quota (dashboard sessions do not count against it).
    usage.noteKeyUse(request.principal.actor.id);
    await usage.consume(request.principal.tenantId, request.principal.plan, 'api_calls', calls);
  });

  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: ERRORS.routeNotFound }));
  app.setErrorHandler((error: { code?: string; statusCode?: number }, request, reply) => {
    if (error instanceof DomainError) {
      const { status, body } = trpcEnvelope(error);
      return reply.code(status).headers(headersOf(error)).send(request.url.startsWith('/trpc') ? body : { error: error.message });
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, 'request failed');
    const message = (error.code && FASTIFY_ERRORS[error.code]) ?? (status === 429 ? ERRORS.tooManyRequests : status === 500 ? ERRORS.internal : 'Ongeldig verzoek.');
    return reply.code(status).send({ error: message });
  });

  const contextOf = (request: FastifyRequest, reply: FastifyReply): Context => ({
    db: deps.db,
    config: deps.config,
    actor: request.principal ?? request.user,
    user: request.user,
    openApiDocument,
    counters,
    clientAddress: request.ip,
    session: sessionCookie(request, reply),
  });
  registerRestRoutes(app, contextOf);
  registerTrpcFastPath(app, contextOf);
  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: ({ req, res }: { req: FastifyRequest; res: FastifyReply }) => contextOf(req, res),
      // The answer hides internals (errorFormatter); the log keeps them, with the request id.
      onError: ({ error, req }: { error: TRPCError; req: FastifyRequest }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') req.log.error({ err: error.cause ?? error }, 'procedure failed');
      },
    },
  });

  collectProcessMetrics();
  app.addHook('onResponse', (request, reply, done) => {
    httpRequestDuration.observe({ method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });
  /** Prometheus metrics: counts and timings only, nothing of any tenant's data. */
  app.get('/metrics', async (_request, reply) => reply.type(metricsContentType).send(await renderMetrics()));
  /** Liveness: the process answers. */
  app.get('/healthz', async () => ({ status: 'ok' }));
  /** Readiness: the database answers too; 503 until it does. */
  app.get('/readyz', async (_request, reply) => {
    try {
      await pingDatabase(deps.db);
      return { status: 'ok' };
    } catch {
      return reply.code(503).send({ error: 'De database is niet bereikbaar.' });
    }
  });
  registerDocsPage(app, openApiDocument);
  await registerDashboard(app, deps.webRoot);
  return app;
}
