import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { DB } from '../db/database.ts';
import { openApiDocument } from '../openapi/document.ts';
import { registerRestRoutes } from '../openapi/rest.ts';
import { appRouter } from '../routers/index.ts';
import { authenticate, bearerToken, type Principal } from './auth.ts';
import type { Config } from './config.ts';
import { ERRORS } from './errors.ts';
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

/** The HTTP server: REST facade, typed RPC at /trpc, the OpenAPI document and health. */
export async function buildApp(deps: { db: DB; config: Config }, options: FastifyServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    logger: {
      level: deps.config.LOG_LEVEL,
      // Keys and secrets never reach the log.
      redact: ['req.headers.authorization', 'req.body.api_key', 'req.body.secret'],
    },
    ...options,
  });
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    const token = bearerToken(request.headers.authorization);
    request.principal = token ? await authenticate(deps.db, token) : null;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    return payload;
  });

  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: ERRORS.routeNotFound }));
  app.setErrorHandler((error: { code?: string; statusCode?: number }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, 'request failed');
    const message = (error.code && FASTIFY_ERRORS[error.code]) ?? (status === 429 ? ERRORS.tooManyRequests : status === 500 ? ERRORS.internal : 'Ongeldig verzoek.');
    return reply.code(status).send({ error: message });
  });

  registerRestRoutes(app, deps);
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
