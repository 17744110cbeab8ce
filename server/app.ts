import { vulnerabilityDataInUse } from '../services/vulnerability-data.ts';
import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import rateLimit from '@fastify/rate-limit';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { pingDatabase } from '../db/database.ts';
import { DomainError, ERRORS } from '../domain/errors.ts';
import { errorAnswer } from '../routers/errors.ts';
import { openApiDocument } from '../openapi/document.ts';
import type { Context } from '../routers/context.ts';
import { appRouter } from '../routers/index.ts';
import { applyDutchValidationMessages } from '../routers/locale.ts';
import { lingerOnRefusedBodies } from './lingering-close.ts';
import type { UserPrincipal } from '../services/accounts.ts';
import type { ApiKeyPrincipal } from '../services/auth.ts';
import type { ServiceDeps } from '../services/deps.ts';
import type { CounterStore } from '../services/limits/counter-store.ts';
import { counterStoreFor } from '../services/limits/counter-store-for.ts';
import { collectProcessMetrics, httpRequestDuration, metricsContentType, renderMetrics } from '../services/metrics.ts';
import { registerDocsPage } from './docs-page.ts';
import { registerMailPages } from './mail-pages.ts';
import { registerDashboard } from './dashboard-pages.ts';
import { httpErrorAnswer, trpcEnvelope } from './error-answers.ts';
import { redactKeys, redactKeyText } from './log-redaction.ts';
import { createAdmission } from './admission.ts';
import { registerMcp } from './mcp/route.ts';
import { rateLimitStore } from './rate-limit-store.ts';
import { registerRestRoutes } from './rest.ts';
import { RAW_SECURITY_HEADERS, registerSecurityHeaders, stampAnswerHeaders } from './security-headers.ts';
import { sessionCookie } from './session-cookie.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The agent's key, when the request carried a valid one. */
    principal: ApiKeyPrincipal | null;
    /** The logged-in person, when the request carried a valid session cookie and no key. */
    user: UserPrincipal | null;
  }
}

const BODY_LIMIT = 1024 * 1024;

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
  const status =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 431
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 408
        : error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW'
          ? 413
          : 400;
  const body = JSON.stringify({ error: CLIENT_ERRORS[status] });
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    ...RAW_SECURITY_HEADERS,
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}

/**
 * The HTTP server: REST facade, typed RPC at /trpc, the OpenAPI document, docs and health. Background
 * workers are not part of it: the entry point starts them beside it (services/workers.ts).
 */
export async function buildApp(
  deps: ServiceDeps & {
    counters?: CounterStore;
    /** Where log lines go; stdout by default. */
    logStream?: NodeJS.WritableStream;
    /** The built dashboard (dist/web by default). */
    webRoot?: string;
  },
  options: FastifyServerOptions = {},
): Promise<FastifyInstance> {
  applyDutchValidationMessages();
  // Built now, not on the first request: it checks every REST operation against its procedure.
  openApiDocument();
  // Loaded and compiled now, not inside the first scan, where it would hold the event loop.
  await vulnerabilityDataInUse(deps);
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    trustProxy: deps.config.TRUST_PROXY,
    // Headers and body must arrive within this bound: a client sending a byte every few seconds
    // cannot hold a connection. Node checks the bound on an interval (30 s by default), so the
    // server is made here with a check every second and the headers bound inside the request one.
    keepAliveTimeout: deps.config.KEEP_ALIVE_TIMEOUT,
    serverFactory: (handler, serverOptions) => {
      const server = createServer(
        {
          requestTimeout: deps.config.REQUEST_TIMEOUT,
          headersTimeout: Math.min(60_000, deps.config.REQUEST_TIMEOUT),
          connectionsCheckingInterval: Math.min(1_000, deps.config.REQUEST_TIMEOUT),
        },
        handler,
      );
      // Fastify applies these to a server it makes itself, not to one a factory makes; without them
      // Node's 5 s keep-alive applies, and a load balancer reusing an idle connection gets a reset.
      // forceCloseConnections ('idle' by default) is applied at close, factory or not.
      const { keepAliveTimeout, connectionTimeout, maxRequestsPerSocket } = serverOptions as {
        keepAliveTimeout?: number;
        connectionTimeout?: number;
        maxRequestsPerSocket?: number;
      };
      server.keepAliveTimeout = keepAliveTimeout ?? deps.config.KEEP_ALIVE_TIMEOUT;
      server.setTimeout(connectionTimeout ?? 0);
      if (maxRequestsPerSocket) server.maxRequestsPerSocket = maxRequestsPerSocket;
      return server;
    },
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
      const answer = httpErrorAnswer(error);
      return stampAnswerHeaders(reply as FastifyReply, request.id)
        .code(answer.status)
        .send({ error: answer.message });
    },
    logger: {
      level: deps.config.LOG_LEVEL,
      ...(deps.logStream ? { stream: deps.logStream } : {}),
      // Keys and secrets never reach the log: not in headers, bodies or URLs, nor in any message.
      redact: ['req.headers.authorization', 'req.body.api_key', 'req.body.secret'],
      serializers: {
        // A serializer that throws would end the process, so nothing here assumes a shape.
        req: (req: {
          method?: string;
          url?: string;
          raw?: { url?: string };
          ip?: string;
          socket?: { remotePort?: number };
        }) => ({
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
          method.apply(
            this,
            args.map((arg) => (typeof arg === 'string' ? redactKeyText(arg) : arg)) as Parameters<typeof method>,
          );
        },
      },
    },
    ...options,
  });
  lingerOnRefusedBodies(app);
  app.decorateRequest('principal', null);
  app.decorateRequest('user', null);
  // Before anything can refuse the request: error answers keep the headers already set.
  registerSecurityHeaders(app);
  const counters = deps.counters ?? counterStoreFor(deps.config);
  if (!deps.counters) app.addHook('onClose', async () => counters.close());
  // The plugin's store is the CounterStore: createRateLimit() derives its limiters from it, so every
  // per-minute window counts there (in memory, or in Redis shared by every instance).
  await app.register(rateLimit, { global: false, store: rateLimitStore(counters) });
  const admission = createAdmission({
    db: deps.db,
    counters,
    ipLimitPerMinute: deps.config.IP_RATE_LIMIT_PER_MINUTE,
    createRateLimit: app.createRateLimit,
  });
  app.addHook('onClose', () => admission.close());
  app.addHook('onRequest', admission.hook);

  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: ERRORS.routeNotFound }));
  app.setErrorHandler((error, request, reply) => {
    const answer = httpErrorAnswer(error);
    if (answer.internal) request.log.error({ err: answer.cause }, 'request failed');
    // A refusal of a /trpc call before tRPC's handler (limits, keys) in tRPC's envelope; anything else in the API's shape.
    const envelope = request.url.startsWith('/trpc') && error instanceof DomainError;
    return reply
      .code(answer.status)
      .headers(answer.headers)
      .send(envelope ? trpcEnvelope(answer) : { error: answer.message });
  });
  // Closing closes the connections idle at that moment; one whose request finishes later would stay
  // open for the whole keep-alive time and hold the shutdown, so they are closed as they go idle.
  app.addHook('preClose', (done) => {
    const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
    app.server.once('close', () => clearInterval(sweep));
    done();
  });

  const contextOf = (request: FastifyRequest, reply: FastifyReply): Context => ({
    db: deps.db,
    config: deps.config,
    log: request.log,
    actor: request.principal ?? request.user,
    user: request.user,
    openApiDocument,
    counters,
    clientAddress: request.ip,
    publicOrigin: () => `${request.protocol}://${request.host}`,
    session: sessionCookie(request, reply),
  });
  registerRestRoutes(app, contextOf);
  registerMcp(app, { contextOf, admission, publicUrl: deps.config.PUBLIC_URL });
  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: ({ req, res }: { req: FastifyRequest; res: FastifyReply }) => contextOf(req, res),
      // The answer hides internals (errorFormatter); the log keeps them, with the request id.
      onError: ({ error, req }: { error: unknown; req: FastifyRequest }) => {
        const answer = errorAnswer(error);
        if (answer.internal) req.log.error({ err: answer.cause }, 'procedure failed');
      },
    },
  });

  collectProcessMetrics();
  app.addHook('onResponse', (request, reply, done) => {
    httpRequestDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
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
  await registerMailPages(app, { db: deps.db, config: deps.config, clock: deps.clock });
  await registerDashboard(app, deps.webRoot);
  return app;
}
