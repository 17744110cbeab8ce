import { performance } from 'node:perf_hooks';
import { scanSite } from '../scanner/index.ts';
import { leakyWordPressSite } from '../test/support/sites.ts';
import { median, type BenchRow } from './stats.ts';

const ROUNDS = 15;

/** Scan of the leaky WordPress fixture against a baseline of the same number of bare fetches. */
export async function benchScan(): Promise<BenchRow[]> {
  const site = await leakyWordPressSite();
  try {
    const scanTimes: number[] = [];
    let requests = 0;
    await scanSite(site.url, { allowPrivateTargets: true });
    for (let i = 0; i < ROUNDS; i++) {
      const start = performance.now();
      const result = await scanSite(site.url, { allowPrivateTargets: true });
      scanTimes.push(performance.now() - start);
      requests = result.requests_made;
    }
    const baselineTimes: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const start = performance.now();
      const batch = Array.from({ length: requests }, (_, n) => `${site.url}probe-${n}`);
      for (let j = 0; j < batch.length; j += 8) {
        await Promise.all(batch.slice(j, j + 8).map((url) => fetch(url).then((r) => r.arrayBuffer())));
      }
      baselineTimes.push(performance.now() - start);
    }
    const scan = median(scanTimes);
    const baseline = median(baselineTimes);
    return [
      {
        name: 'scan of leaky WordPress fixture (median wall time)',
        value: `${scan.toFixed(1)} ms, ${requests} requests`,
        baseline: `${baseline.toFixed(1)} ms for ${requests} bare fetches`,
        ratio: scan / baseline,
        target: 'scan <= 150 ms',
        met: scan <= 150,
      },
    ];
  } finally {
    await site.close();
  }
}
