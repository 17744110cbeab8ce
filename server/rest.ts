import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../routers/context.ts';
import { OPENAPI_PROCEDURES } from '../routers/procedures.ts';
import { errorAnswer } from '../routers/errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route needs a key: the authentication hook answers 401 before the body is parsed. */
    protect?: boolean;
    /** Admission does not count the request; the route charges each call it makes (Admission.charge). */
    chargePerCall?: boolean;
  }
}

/** Aborted when the client goes away before its answer: what it started (a scan) stops, and nothing is stored. */
function disconnectSignal(reply: FastifyReply): AbortSignal {
  const disconnected = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) disconnected.abort();
  });
  return disconnected.signal;
}

/**
 * One Fastify route per procedure, from the procedures' openapi meta, each calling its procedure by
 * reference (middlewares and validation included): real per-endpoint routes, our status codes and
 * our error shape.
 */
export function registerRestRoutes(
  app: FastifyInstance,
  contextOf: (request: FastifyRequest, reply: FastifyReply) => Context,
): void {
  for (const { name, method, path, meta, call } of OPENAPI_PROCEDURES) {
    const usesBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
    app.route({
      method,
      url: path.replace(/\{(\w+)\}/g, ':$1'),
      // Read by the authentication hook: a protected route answers 401 before its body is parsed.
      config: { protect: meta.openapi.protect !== false },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const params = request.params as Record<string, string>;
        // A body method with path parameters (PATCH /sites/{site_id}) gets both; a body that is not an
        // object is passed on as is, so validation names it.
        // No body at all (POST …/channels/{channel_id}/test) is the path's parameters alone.
        const body = request.body === undefined && Object.keys(params).length > 0 ? {} : request.body;
        const bodyWithParams =
          Object.keys(params).length > 0 && typeof body === 'object' && body !== null && !Array.isArray(body)
            ? { ...body, ...params }
            : body;
        const input = usesBody ? bodyWithParams : { ...(request.query as object), ...params };
        // The answer is returned for Fastify to send, not sent here and the reply returned: a Reply
        // is thenable, and the handler's promise would then wait on it for one more turn.
        try {
          const data = await call(
            usesBody
              ? { ...contextOf(request, reply), scanControl: { signal: disconnectSignal(reply) } }
              : contextOf(request, reply),
            input,
          );
          reply.code(meta.successStatus ?? 200);
          if (meta.responseContentType) reply.type(meta.responseContentType);
          return data;
        } catch (error) {
          const answer = errorAnswer(error);
          if (answer.internal) request.log.error({ err: answer.cause, procedure: name }, 'procedure failed');
          reply.code(answer.status).headers(answer.headers);
          return { error: answer.message };
        }
      },
    });
  }
}
