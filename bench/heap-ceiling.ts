// The heap limit of `npm start` is also a ceiling: a process that reaches it ends. This measures the
// worst a scanned site can make the service hold: MAX_CONCURRENT_SCANS scans at once of a page whose
// scripts are as large as a scan reads (CLIENT_CODE_LIMITS), in two-byte text (twice the heap of
// ASCII per character), through the built service with `npm start`'s flags. It prints the peak heap
// in use (from /metrics, garbage included), the peak resident memory and every scan's status; it exits
// non-zero when the service died or a scan did not end in 201.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { openMigratedDatabase } from '../db/database.ts';
import { loadConfig } from '../infra/config.ts';
import { CLIENT_CODE_LIMITS } from '../scanner/probes/client-code.ts';
import * as admin from '../services/admin.ts';
import { startSite, type Reply } from '../test/support/fixture-sites.ts';
import { freePort } from '../test/support/net.ts';
import { NODE_FLAGS } from './node-flags.ts';
import { BENCH_CONFIG, benchTenant } from './seed.ts';

const MB = 1024 * 1024;
const SCANS = loadConfig({}).MAX_CONCURRENT_SCANS;
/** U+0451: two bytes in UTF-8, and a character outside Latin-1, so V8 holds the text two bytes a character. */
const WIDE = '\u0451';

const dir = mkdtempSync(join(tmpdir(), 'scanner-heap-ceiling-'));
const routes: Record<string, Reply> = {};
const scripts = Array.from({ length: CLIENT_CODE_LIMITS.scripts }, (_, i) => `/s${i}.js`);
for (const [i, path] of scripts.entries()) {
  const chars = Math.floor((CLIENT_CODE_LIMITS.scriptBytes - 32) / Buffer.byteLength(WIDE));
  routes[path] = { headers: { 'content-type': 'text/javascript' }, body: `var a${i}="${WIDE.repeat(chars)}";` };
}
routes['/'] = {
  headers: { 'content-type': 'text/html' },
  body: `<!doctype html><html><head>${scripts.map((src) => `<script src="${src}"></script>`).join('')}</head></html>`,
};
const site = await startSite({ routes });

const dbPath = join(dir, 'bench.db');
const db = await openMigratedDatabase(dbPath);
const tenant = await benchTenant(db, 'Heap ceiling');
const target = await admin.createSite(
  { db, config: BENCH_CONFIG },
  { tenant_id: tenant.tenantId, name: 'Grote scripts', url: site.url },
);
await db.destroy();

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, [...NODE_FLAGS, 'dist/server/main.js'], {
  env: {
    ...process.env,
    DATABASE_PATH: dbPath,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SCANNER_ALLOW_PRIVATE_TARGETS: 'true',
    MAX_CONCURRENT_SCANS_PER_TENANT: String(SCANS),
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
let ended: string | null = null;
server.once('exit', (code, signal) => (ended = `exited with ${signal ?? code}`));
try {
  while (
    !(await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (ended) throw new Error(`the service ${ended} before it answered`);
    await delay(100);
  }
  let heapPeak = 0;
  let rssPeak = 0;
  const metric = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? 0);
  const sampler = setInterval(() => {
    fetch(`${base}/metrics`)
      .then((r) => r.text())
      .then((text) => {
        heapPeak = Math.max(heapPeak, metric(text, 'nodejs_heap_size_used_bytes'));
        rssPeak = Math.max(rssPeak, metric(text, 'process_resident_memory_bytes'));
      })
      .catch(() => {});
  }, 100);
  const began = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: SCANS }, () =>
      fetch(`${base}/api/agent/scan`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ site_id: target.id }),
      }).then(
        (r) => String(r.status),
        (error: Error) => error.message,
      ),
    ),
  );
  clearInterval(sampler);
  const tally = new Map<string, number>();
  for (const status of statuses) tally.set(status, (tally.get(status) ?? 0) + 1);
  const counts = [...tally].map(([status, n]) => `${n}x ${status}`);
  process.stdout.write(
    `${SCANS} concurrent scans of ${CLIENT_CODE_LIMITS.scripts} scripts of ${CLIENT_CODE_LIMITS.scriptBytes / MB} MiB (node ${NODE_FLAGS.join(' ')}): ${counts.join(', ')} in ${((performance.now() - began) / 1000).toFixed(1)} s; peak heap in use ${(heapPeak / MB).toFixed(0)} MB, peak resident ${(rssPeak / MB).toFixed(0)} MB; the service ${ended ?? 'is still running'}\n`,
  );
  process.exitCode = ended || statuses.some((status) => status !== '201') ? 1 : 0;
} finally {
  server.kill();
  await site.close();
  rmSync(dir, { recursive: true, force: true });
}
