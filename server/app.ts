import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import rateLimit from '@fastify/rate-limit';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { TRPCError } from '@trpc/server';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { pingDatabase, type DB } from '../db/database.ts';
import { openApiDocument } from '../openapi/document.ts';
import { registerRestRoutes } from './rest.ts';
import { appRouter } from '../routers/index.ts';
import { authenticate, bearerToken, type Principal } from '../services/auth.ts';
import type { Config } from '../services/config.ts';
import { ApiError, ERRORS } from '../domain/errors.ts';
import { MemoryCounterStore, rateLimitStore, type CounterStore } from '../services/limits/counter-store.ts';
import { redactKeys, redactKeyText, urlCarriesKey } from './log-redaction.ts';
import { allowDocs, RAW_SECURITY_HEADERS, registerSecurityHeaders, SECURITY_HEADERS } from './security-headers.ts';
import { consumeQuota } from '../services/limits/quotas.ts';
import { registerTrpcFastPath } from './trpc-fast-path.ts';
import { collectProcessMetrics, httpRequestDuration, metricsContentType, renderMetrics } from '../services/metrics.ts';
import { secretBoxFor } from '../services/secrets.ts';
import { reencryptWebhookSecrets } from '../services/webhooks.ts';
import { WebhookWorker } from '../services/webhook-delivery/worker.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
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

function swaggerUiPage(): string {
  return `<!doctype html>
<html lang="nl"><head><meta charset="utf-8"><title>Website Security Scanner API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css"></head>
<body><div id="swagger-ui"></div><script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script></body></html>`;
}

/** /trpc keeps tRPC's error envelope, also for errors raised before the tRPC handler (limits). */
function trpcErrorEnvelope(error: ApiError) {
  const code = error.trpc.code;
  return { error: { message: error.message, code: TRPC_ERROR_CODES_BY_KEY[code], data: { code, httpStatus: error.statusCode } } };
}

type LimitResult = Awaited<ReturnType<ReturnType<FastifyInstance['createRateLimit']>>>;

/** Sets the x-ratelimit-* headers of a per-minute limit; over the limit, 429 with Retry-After. */
function enforceLimit(result: LimitResult, reply: FastifyReply): void {
  if (result.isAllowed) return;
  const headers = {
    'x-ratelimit-limit': String(result.max),
    'x-ratelimit-remaining': String(result.remaining),
    'x-ratelimit-reset': String(result.ttlInSeconds),
  };
  reply.headers(headers);
  if (result.isExceeded) {
    throw new ApiError('TOO_MANY_REQUESTS', `${ERRORS.tooManyRequests} Probeer het opnieuw over ${result.ttlInSeconds} seconden.`, { ...headers, 'retry-after': String(result.ttlInSeconds) });
  }
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
  const path = url.slice('/trpc/'.length).split('?')[0]!;
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Counted as written; tRPC rejects it anyway.
  }
  return Math.max(1, decoded.split(',').length);
}

/** The HTTP server: REST facade, typed RPC at /trpc, the OpenAPI document and health. */
export async function buildApp(
  deps: { db: DB; config: Config; counters?: CounterStore; /** Where log lines go; stdout by default. */ logStream?: NodeJS.WritableStream },
  options: FastifyServerOptions = {},
): Promise<FastifyInstance> {
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
    frameworkErrors: (error, _request, reply) => {
      const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
      const message = status === 414 ? 'De URL is te lang.' : (FASTIFY_ERRORS[error.code] ?? 'Ongeldig verzoek.');
      return (reply as FastifyReply).code(status).headers(SECURITY_HEADERS).send({ error: message });
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
  registerSecurityHeaders(app);
  const counters = deps.counters ?? new MemoryCounterStore();
  if (!deps.counters) app.addHook('onClose', async () => counters.close());
  await app.register(rateLimit, { global: false });
  const store = rateLimitStore(counters);
  const ipLimit = app.createRateLimit({ store, timeWindow: 60_000, max: deps.config.IP_RATE_LIMIT_PER_MINUTE, keyGenerator: (request) => `ip:${request.ip}` });
  const keyLimit = app.createRateLimit({
    store,
    timeWindow: 60_000,
    max: (request) => request.principal!.rateLimit,
    keyGenerator: (request) => `key:${request.principal!.keyId}`,
  });
  // 1. Every request, authenticated or not, counts against its address (guards key guessing).
  app.addHook('onRequest', async (request, reply) => enforceLimit(await ipLimit(request), reply));
  // 2. A key in the URL ends up in logs, proxies and browser history: refuse it, say where it goes.
  app.addHook('onRequest', async (request) => {
    if (urlCarriesKey(request.url)) throw new ApiError('BAD_REQUEST', ERRORS.keyInUrl);
  });
  // 3. Who is calling. A protected REST route answers 401 here, before its body is even parsed.
  app.addHook('onRequest', async (request) => {
    const token = bearerToken(request.headers.authorization);
    request.principal = token ? await authenticate(deps.db, token) : null;
    if (!request.principal && request.routeOptions.config?.protect) {
      throw new ApiError('UNAUTHORIZED', ERRORS.unauthorized);
    }
  });
  // 4. The key's own limit per minute, counted per key id and per procedure call: a /trpc batch
  // of seven counts seven, and one that does not fit in what is left is refused whole.
  app.addHook('onRequest', async (request, reply) => {
    if (!request.principal) return;
    for (let call = callsIn(request.url); call > 0; call--) enforceLimit(await keyLimit(request), reply);
  });
  // 5. The tenant's monthly API-call quota, in the database so it survives restarts.
  app.addHook('onRequest', async (request) => {
    if (request.principal) await consumeQuota(deps.db, request.principal, 'api_calls', callsIn(request.url));
  });

  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: ERRORS.routeNotFound }));
  app.setErrorHandler((error: { code?: string; statusCode?: number }, request, reply) => {
    if (error instanceof ApiError) {
      return reply.code(error.statusCode).headers(error.headers).send(request.url.startsWith('/trpc') ? trpcErrorEnvelope(error) : { error: error.message });
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, 'request failed');
    const message = (error.code && FASTIFY_ERRORS[error.code]) ?? (status === 429 ? ERRORS.tooManyRequests : status === 500 ? ERRORS.internal : 'Ongeldig verzoek.');
    return reply.code(status).send({ error: message });
  });

  registerRestRoutes(app, deps);
  registerTrpcFastPath(app, deps);
  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: ({ req }: { req: { principal: Principal | null } }) => ({ ...deps, principal: req.principal }),
      // The answer hides internals (errorFormatter); the log keeps them, with the request id.
      onError: ({ error, req }: { error: TRPCError; req: FastifyRequest }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') req.log.error({ err: error.cause ?? error }, 'procedure failed');
      },
    },
  });

  const worker = new WebhookWorker(
    deps.db,
    {
      retrySchedule: deps.config.WEBHOOK_RETRY_SCHEDULE,
      pollIntervalMs: deps.config.WEBHOOK_POLL_INTERVAL,
      disableAfter: deps.config.WEBHOOK_DISABLE_AFTER,
      allowPrivateTargets: deps.config.SCANNER_ALLOW_PRIVATE_TARGETS,
      secrets: secretBoxFor(deps.config),
    },
    app.log,
  );
  app.addHook('onReady', async () => {
    // Secrets stored in plain text, or under a key that SECRETS_KEY no longer lists first, are
    // re-encrypted with the current key: upgrading and rotating need nothing more than a restart.
    const changed = await reencryptWebhookSecrets(deps.db, secretBoxFor(deps.config));
    if (changed > 0) app.log.info({ changed }, 'webhook secrets re-encrypted with the current key');
    worker.start();
  });
  app.addHook('onClose', async () => worker.stop());

  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id);
    return payload;
  });
  collectProcessMetrics();
  app.addHook('onResponse', async (request, reply) => {
    httpRequestDuration.observe({ method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) }, reply.elapsedTime / 1000);
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
  app.get('/openapi.json', async () => openApiDocument());
  const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const assets: Record<string, [string, string]> = {
    'swagger-ui.css': ['text/css; charset=utf-8', readFileSync(join(swaggerDir, 'swagger-ui.css'), 'utf8')],
    'swagger-ui-bundle.js': ['application/javascript; charset=utf-8', readFileSync(join(swaggerDir, 'swagger-ui-bundle.js'), 'utf8')],
    'init.js': ['application/javascript; charset=utf-8', "window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui' });"],
  };
  app.get('/docs', async (_request, reply) => allowDocs(reply).type('text/html; charset=utf-8').send(swaggerUiPage()));
  app.get<{ Params: { asset: string } }>('/docs/:asset', async (request, reply) => {
    const asset = assets[request.params.asset];
    if (!asset) return reply.code(404).send({ error: ERRORS.routeNotFound });
    return allowDocs(reply).type(asset[0]).header('cache-control', 'public, max-age=3600').send(asset[1]);
  });
  return app;
}
