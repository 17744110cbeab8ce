// The service as `npm start` runs it, plus what the benchmark needs inside the same process: a plain
// Fastify route doing the same query behind the same auth, a query-only Fastify app without any of
// the service's hooks (the baseline), and event-loop, memory and CPU telemetry.
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { openMigratedDatabase } from '../db/database.ts';
import Fastify from 'fastify';
import { systemActor } from '../domain/actor.ts';
import { buildApp } from '../server/app.ts';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import type { Context } from '../routers/context.ts';
import { appRouter } from '../routers/index.ts';
import { createCallerFactory } from '../routers/trpc.ts';
import { MemoryCounterStore } from '../services/limits/counter-store.ts';
import { listScans as listScanPage } from '../services/scans.ts';
import { databaseLocation, loadConfig } from '../infra/config.ts';

const config = loadConfig();
const db = await openMigratedDatabase(databaseLocation(config), { backgroundCheckpoints: true });
const app = await buildApp({ db, config });

app.get('/bench/plain/scans', async (request, reply) => {
  const principal = request.principal;
  if (!principal) return reply.code(401).send({ error: 'Niet geauthenticeerd.' });
  if (!principal.permissions.includes('read_scans')) return reply.code(403).send({ error: 'Onvoldoende rechten.' });
  return listScanPage({ db, config }, principal, { limit: 20, offset: 0 });
});

// The baseline: the same service call and serialisation as GET /api/agent/scans?limit=20, with no
// authentication, limits or quota, on a Fastify app of its own (so none of the service's hooks run).
const baseline = Fastify({ logger: false });
baseline.get<{ Headers: { 'x-bench-tenant': string } }>('/scans', async (request) =>
  listScanPage({ db, config }, systemActor(request.headers['x-bench-tenant'], 'bench'), { limit: 20, offset: 0 }),
);

// The library's floors, on the same hook-free app: what tRPC itself costs for the same query with an
// actor given (no key look-up, limits or quota). tRPC's Fastify adapter at /trpc, and a bare Fastify
// route calling the procedure through createCaller (zod input and output).
const counters = new MemoryCounterStore();
const benchContext = (tenantId: string): Context => ({
  db,
  config,
  log: baseline.log,
  actor: systemActor(tenantId, 'bench'),
  user: null,
  openApiDocument: () => ({}),
  counters,
  clientAddress: '127.0.0.1',
  publicOrigin: () => 'http://127.0.0.1',
  session: { token: null, set: () => {}, clear: () => {} },
});
const tenantOf = (headers: Record<string, unknown>) => String(headers['x-bench-tenant'] ?? '');
const createCaller = createCallerFactory(appRouter);
baseline.get('/caller/scans', async (request) =>
  createCaller(benchContext(tenantOf(request.headers))).scans.list({ limit: 20 }),
);
await baseline.register(fastifyTRPCPlugin, {
  prefix: '/trpc',
  trpcOptions: {
    router: appRouter,
    createContext: ({ req }: { req: { headers: Record<string, unknown> } }) => benchContext(tenantOf(req.headers)),
  },
});

const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
// The longest garbage-collection pause, to tell a collector's stall from the service's own.
let gcMaxMs = 0;
new PerformanceObserver((entries) => {
  for (const entry of entries.getEntries()) gcMaxMs = Math.max(gcMaxMs, entry.duration);
}).observe({ entryTypes: ['gc'] });
// The peak, and what it was made of when it was reached: V8's heap (reserved and in use) and the
// buffers outside it; the rest of the resident memory is code, the SQLite page cache and malloc's own.
let peak = process.memoryUsage();
setInterval(() => {
  const now = process.memoryUsage();
  if (now.rss > peak.rss) peak = now;
}, 25).unref();

app.get('/bench/stats', async () => {
  const cpu = process.cpuUsage();
  return {
    rss: process.memoryUsage().rss,
    peakRss: peak.rss,
    peakHeapTotal: peak.heapTotal,
    peakHeapUsed: peak.heapUsed,
    peakExternal: peak.external,
    loopMaxMs: loop.max / 1e6,
    gcMaxMs,
    cpuUs: cpu.user + cpu.system,
  };
});
app.post('/bench/stats/reset', async () => {
  loop.reset();
  gcMaxMs = 0;
  return { ok: true };
});

await app.listen({ port: config.PORT, host: config.HOST });
const baselineAddress = await baseline.listen({ port: 0, host: config.HOST });
process.stdout.write(`bench server ready; baseline ${baselineAddress}\n`);

const stop = async () => {
  await app.close();
  await baseline.close();
  await db.destroy();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
