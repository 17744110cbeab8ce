import { TRPCError } from '@trpc/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../routers/context.ts';
import { appRouter } from '../routers/index.ts';
import { createCallerFactory } from '../routers/trpc.ts';
import { ApiError, ERRORS } from '../server/errors.ts';
import { openApiProcedures } from './procedures.ts';

const STATUS_OF: Partial<Record<TRPCError['code'], number>> = {
  BAD_REQUEST: 400,
  PARSE_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
};

interface Issue {
  path: PropertyKey[];
  message: string;
}

/** Dutch error text: validation issues name the field; other 4xx keep the procedure's message. */
function errorBody(error: TRPCError): { status: number; body: { error: string }; headers?: Record<string, string> } {
  if (error.cause instanceof ApiError) return { status: error.cause.statusCode, body: { error: error.cause.message }, headers: error.cause.headers };
  const status = STATUS_OF[error.code] ?? 500;
  if (status === 500) return { status, body: { error: ERRORS.internal } };
  const issues = (error.cause as { issues?: Issue[] } | undefined)?.issues;
  if (issues?.length) {
    const text = issues.map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message)).join('; ');
    return { status, body: { error: `Ongeldig verzoek: ${text}` } };
  }
  return { status, body: { error: error.message } };
}

type Call = (input: unknown) => Promise<unknown>;

/**
 * One Fastify route per procedure, from the procedures' openapi meta, calling the procedure through
 * tRPC's server-side caller: real per-endpoint routes, our status codes and our error shape.
 */
export function registerRestRoutes(app: FastifyInstance, deps: Deps): void {
  const createCaller = createCallerFactory(appRouter);
  for (const { name, method, path, meta } of openApiProcedures()) {
    const [group, procedure] = name.split('.') as [string, string];
    const usesBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
    app.route({
      method,
      url: path.replace(/\{(\w+)\}/g, ':$1'),
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const caller = createCaller({ ...deps, principal: request.principal });
        const call = (caller as unknown as Record<string, Record<string, Call>>)[group]![procedure]!;
        const params = request.params as Record<string, string>;
        const input = usesBody ? request.body : { ...(request.query as object), ...params };
        try {
          const output = await call(input);
          return reply.code(meta.successStatus ?? 200).send(output);
        } catch (error) {
          const trpcError = error instanceof TRPCError ? error : new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: error });
          const { status, body, headers } = errorBody(trpcError);
          if (status === 500) request.log.error({ err: trpcError.cause ?? trpcError, procedure: name }, 'procedure failed');
          return reply.code(status).headers(headers ?? {}).send(body);
        }
      },
    });
  }
}
