import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import rateLimit from '@fastify/rate-limit';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import type { DB } from '../db/database.ts';
import { openApiDocument } from '../openapi/document.ts';
import { registerRestRoutes } from '../openapi/rest.ts';
import { appRouter } from '../routers/index.ts';
import { authenticate, bearerToken, type Principal } from './auth.ts';
import type { Config } from './config.ts';
import { ApiError, ERRORS } from './errors.ts';
import { MemoryCounterStore, rateLimitStore, type CounterStore } from './limits/counter-store.ts';
import { consumeQuota } from './limits/quotas.ts';
import { registerTrpcFastPath } from './trpc-fast-path.ts';
import { WebhookWorker } from './webhooks/worker.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

const BODY_LIMIT = 1024 * 1024;

const FASTIFY_ERRORS: Record<string, string> = {
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

/** The HTTP server: REST facade, typed RPC at /trpc, the OpenAPI document and health. */
export async function buildApp(deps: { db: DB; config: Config; counters?: CounterStore }, options: FastifyServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    trustProxy: deps.config.TRUST_PROXY,
    logger: {
      level: deps.config.LOG_LEVEL,
      // Keys and secrets never reach the log.
      redact: ['req.headers.authorization', 'req.body.api_key', 'req.body.secret'],
    },
    ...options,
  });
  app.decorateRequest('principal', null);
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
  // 2. Who is calling.
  app.addHook('onRequest', async (request) => {
    const token = bearerToken(request.headers.authorization);
    request.principal = token ? await authenticate(deps.db, token) : null;
  });
  // 3. The key's own limit per minute, counted per key id, REST and /trpc alike.
  app.addHook('onRequest', async (request, reply) => {
    if (request.principal) enforceLimit(await keyLimit(request), reply);
  });
  // 4. The tenant's monthly API-call quota, in the database so it survives restarts.
  app.addHook('onRequest', async (request) => {
    if (request.principal) await consumeQuota(deps.db, request.principal, 'api_calls');
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    return payload;
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
    trpcOptions: { router: appRouter, createContext: ({ req }: { req: { principal: Principal | null } }) => ({ ...deps, principal: req.principal }) },
  });

  const worker = new WebhookWorker(
    deps.db,
    {
      retrySchedule: deps.config.WEBHOOK_RETRY_SCHEDULE,
      pollIntervalMs: deps.config.WEBHOOK_POLL_INTERVAL,
      disableAfter: deps.config.WEBHOOK_DISABLE_AFTER,
      allowPrivateTargets: deps.config.SCANNER_ALLOW_PRIVATE_TARGETS,
    },
    app.log,
  );
  app.addHook('onReady', async () => worker.start());
  app.addHook('onClose', async () => worker.stop());

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/openapi.json', async () => openApiDocument());
  const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const assets: Record<string, [string, string]> = {
    'swagger-ui.css': ['text/css; charset=utf-8', readFileSync(join(swaggerDir, 'swagger-ui.css'), 'utf8')],
    'swagger-ui-bundle.js': ['application/javascript; charset=utf-8', readFileSync(join(swaggerDir, 'swagger-ui-bundle.js'), 'utf8')],
    'init.js': ['application/javascript; charset=utf-8', "window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui' });"],
  };
  app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(swaggerUiPage()));
  app.get<{ Params: { asset: string } }>('/docs/:asset', async (request, reply) => {
    const asset = assets[request.params.asset];
    if (!asset) return reply.code(404).send({ error: ERRORS.routeNotFound });
    return reply.type(asset[0]).header('cache-control', 'public, max-age=3600').send(asset[1]);
  });
  return app;
}
