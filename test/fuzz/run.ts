// npm run fuzz [-- --requests N --seed S --concurrency C]: fuzzes a service started in this process
// and prints the status histogram, the slowest /healthz answer and the heap before and after.
import { parseArgs } from 'node:util';
import { fuzz } from './fuzzer.ts';
import { fuzzTarget } from './target.ts';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '100000' },
    seed: { type: 'string' },
    concurrency: { type: 'string', default: '16' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  process.stdout.write(
    'Usage: npm run fuzz -- [--requests 100000] [--seed S] [--concurrency 16]\n\nFuzzes a service started in this process with requests derived from its OpenAPI document;\nexit 1 on any 5xx, a failed health check, or heap growth above 20% after a warm-up.\n',
  );
  process.exit(0);
}
const seed = Number(values.seed ?? Math.floor(Math.random() * 2 ** 31));
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const { api, target, document } = await fuzzTarget();
try {
  // Caches fill once (prepared statements, schema and router internals): memory is compared from
  // the end of a warm-up run with another seed, so what is measured is what the run leaves behind.
  await fuzz(target, document, { requests: 2_000, concurrency: Number(values.concurrency), seed: seed + 1 });
  const before = heap();
  const started = Date.now();
  const report = await fuzz(target, document, {
    requests: Number(values.requests),
    concurrency: Number(values.concurrency),
    seed,
    onProgress: (done) => done % 10_000 === 0 && process.stderr.write(`… ${done} requests\n`),
  });
  // Let sockets close and timers settle before measuring what stays.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const after = heap();
  const seconds = (Date.now() - started) / 1000;
  const fivexx = Object.entries(report.histogram)
    .filter(([status]) => status.startsWith('5') || status === 'network error')
    .reduce((sum, [, n]) => sum + n, 0);
  console.log(
    `Fuzz run: ${report.requests} requests in ${seconds.toFixed(0)} s (${(report.requests / seconds).toFixed(0)} req/s), seed ${seed}`,
  );
  console.log('Status histogram:');
  for (const [status, count] of Object.entries(report.histogram).sort()) console.log(`  ${status.padEnd(14)} ${count}`);
  console.log(`5xx and network errors: ${fivexx}`);
  console.log(`Slowest /healthz during the run: ${report.healthMaxMs.toFixed(1)} ms`);
  console.log('Slowest requests:');
  for (const slow of report.slowest) console.log(`  ${slow.ms.toFixed(0).padStart(5)} ms  ${slow.request}`);
  console.log(
    `Heap after GC: ${(before / 2 ** 20).toFixed(1)} MB before, ${(after / 2 ** 20).toFixed(1)} MB after (${((after / before - 1) * 100).toFixed(1)}%)${typeof (globalThis as { gc?: unknown }).gc === 'function' ? '' : ' (run with --expose-gc for exact figures)'}`,
  );
  for (const error of report.serverErrors) console.log(`  ${error.status} ${error.request}\n      ${error.body}`);
  process.exitCode = fivexx === 0 && report.serverErrors.length === 0 && after <= before * 1.2 ? 0 : 1;
} finally {
  await api.close();
}
