import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../routers/context.ts';
import { callProcedure } from '../routers/caller.ts';
import { fieldIssues, invalidInputMessage } from '../routers/common.ts';
import { ApiError, ERRORS } from '../domain/errors.ts';
import { openApiProcedures } from '../routers/procedures.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route needs a key: the authentication hook answers 401 before the body is parsed. */
    protect?: boolean;
  }
}

/** Dutch error text: validation issues name the field; other 4xx keep the procedure's message. */
function errorBody(error: TRPCError): { status: number; body: { error: string }; headers?: Record<string, string> } {
  if (error.cause instanceof ApiError) return { status: error.cause.statusCode, body: { error: error.cause.message }, headers: error.cause.headers };
  const status = getHTTPStatusCodeFromError(error);
  if (status >= 500) return { status: 500, body: { error: ERRORS.internal } };
  const issues = fieldIssues(error.cause);
  return { status, body: { error: issues.length ? invalidInputMessage(issues) : error.message } };
}

/**
 * One Fastify route per procedure, from the procedures' openapi meta, calling the procedure through
 * tRPC's server-side caller: real per-endpoint routes, our status codes and our error shape.
 */
export function registerRestRoutes(app: FastifyInstance, deps: Deps): void {
  for (const { name, method, path, meta } of openApiProcedures()) {
    const usesBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
    app.route({
      method,
      url: path.replace(/\{(\w+)\}/g, ':$1'),
      // Read by the authentication hook: a protected route answers 401 before its body is parsed.
      config: { protect: meta.openapi.protect !== false },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const params = request.params as Record<string, string>;
        const input = usesBody ? request.body : { ...(request.query as object), ...params };
        try {
          const output = await callProcedure({ ...deps, principal: request.principal }, name, input);
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
