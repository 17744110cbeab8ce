import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../routers/context.ts';
import { QUERY_PROCEDURES } from '../routers/procedures.ts';

/**
 * tRPC's HTTP adapter turns every request into a Fetch API Request and every answer into a Response
 * read back through web streams; on Node 20 that costs more than our queries. For the common case -
 * one GET query, no batching, no streaming - this hook runs the query by reference and answers with
 * exactly the body tRPC sends. Anything else, and every error, goes to tRPC's own Fastify adapter,
 * which renders its error envelope (queries only read, so running one again there is safe).
 */
export function registerTrpcFastPath(app: FastifyInstance, contextOf: (request: FastifyRequest, reply: FastifyReply) => Context): void {
  /** The body to answer with, or null when tRPC's own handler must answer. */
  const fastAnswer = async (request: FastifyRequest, reply: FastifyReply): Promise<{ result: { data: unknown } } | null> => {
    if (request.method !== 'GET' || request.headers['trpc-accept']) return null;
    const procedure = QUERY_PROCEDURES.get((request.params as { path?: string }).path ?? '');
    const query = request.query as Record<string, string | string[] | undefined>;
    if (query.batch !== undefined || !procedure) return null;
    if (query.input !== undefined && typeof query.input !== 'string') return null;
    try {
      const input = query.input === undefined ? undefined : JSON.parse(query.input);
      return { result: { data: await procedure.call(contextOf(request, reply), input) } };
    } catch {
      return null;
    }
  };
  // Only tRPC's own route is wrapped (a REST request does not pay for it), and as its handler
  // rather than a preHandler hook: one call instead of a hook runner per request.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/trpc/')) return;
    const trpcHandler = route.handler;
    route.handler = async function (request, reply) {
      const body = await fastAnswer(request, reply);
      if (!body) return trpcHandler.call(this, request, reply);
      // Returned as an object, Fastify serialises it as application/json; charset=utf-8 without
      // parsing a content type we would set. (Not sent here and the reply returned: a Reply is
      // thenable, and the handler's promise would then wait on it for one more turn.)
      reply.header('vary', 'trpc-accept, accept');
      return body;
    };
  });
}
