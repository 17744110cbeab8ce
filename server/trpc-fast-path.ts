import type { AnyProcedure } from '@trpc/server';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../routers/context.ts';
import { appRouter } from '../routers/index.ts';
import { createCallerFactory } from '../routers/trpc.ts';

type Call = (input: unknown) => Promise<unknown>;

/**
 * tRPC's HTTP adapter turns every request into a Fetch API Request and every answer into a Response
 * read back through web streams; on Node 20 that costs more than our queries. For the common case -
 * one GET query, no batching, no streaming - this hook runs the query through tRPC's server-side
 * caller and answers with exactly the body tRPC sends. Anything else, and every error, goes to
 * tRPC's own Fastify adapter, which renders its error envelope (queries only read, so running one
 * again there is safe).
 */
export function registerTrpcFastPath(app: FastifyInstance, deps: Deps): void {
  const createCaller = createCallerFactory(appRouter);
  const procedures = appRouter._def.procedures as unknown as Record<string, AnyProcedure>;
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'GET' || !request.url.startsWith('/trpc/') || request.headers['trpc-accept']) return;
    const path = (request.params as { path?: string }).path ?? '';
    const query = request.query as Record<string, string | string[] | undefined>;
    if (query.batch !== undefined || procedures[path]?._def.type !== 'query') return;
    let input: unknown;
    try {
      input = typeof query.input === 'string' ? JSON.parse(query.input) : undefined;
    } catch {
      return;
    }
    if (query.input !== undefined && typeof query.input !== 'string') return;
    const [group, name] = path.split('.') as [string, string];
    const call = (createCaller({ ...deps, principal: request.principal }) as unknown as Record<string, Record<string, Call>>)[group]![name]!;
    let data: unknown;
    try {
      data = await call(input);
    } catch {
      return;
    }
    return reply.header('vary', 'trpc-accept, accept').type('application/json').send({ result: { data } });
  });
}
