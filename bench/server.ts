// The service as `npm start` runs it, plus what the benchmark needs inside the same process: a plain
// Fastify route doing the same query behind the same auth (the baseline of the facade), and
// event-loop and memory telemetry.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openMigratedDatabase } from '../db/database.ts';
import { listScans } from '../db/scans.ts';
import { pagination } from '../routers/common.ts';
import { buildApp } from '../server/app.ts';
import { databaseLocation, loadConfig } from '../services/config.ts';

const config = loadConfig();
const db = await openMigratedDatabase(databaseLocation(config));
const app = await buildApp({ db, config });

app.get('/bench/plain/scans', async (request, reply) => {
  const principal = request.principal;
  if (!principal) return reply.code(401).send({ error: 'Niet geauthenticeerd.' });
  if (!principal.permissions.includes('read_scans')) return reply.code(403).send({ error: 'Onvoldoende rechten.' });
  const { rows, total } = await listScans(db, principal.tenantId, {}, { limit: 20, offset: 0 });
  return { scans: rows.map(({ url: _url, ...item }) => item), pagination: pagination(total, 20, 0) };
});

const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
let peakRss = process.memoryUsage().rss;
setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 25).unref();

app.get('/bench/stats', async () => ({ rss: process.memoryUsage().rss, peakRss, loopMaxMs: loop.max / 1e6 }));
app.post('/bench/stats/reset', async () => {
  loop.reset();
  return { ok: true };
});

await app.listen({ port: config.PORT, host: config.HOST });
process.stdout.write('bench server ready\n');

const stop = async () => {
  await app.close();
  await db.destroy();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
