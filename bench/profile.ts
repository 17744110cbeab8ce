import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
}

/**
 * The top functions by self time of the V8 CPU profile(s) `node --cpu-prof` wrote into `dir`:
 * samples per function (name, file, line) as a share of all samples.
 */
export function profileSummary(dir: string, top = 20): string {
  const files = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
  const selfSamples = new Map<string, number>();
  let total = 0;
  let micros = 0;
  for (const file of files) {
    const profile: CpuProfile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    micros += profile.endTime - profile.startTime;
    for (const node of profile.nodes) {
      const hits = node.hitCount ?? 0;
      if (hits === 0) continue;
      const { functionName, url, lineNumber } = node.callFrame;
      const where = url ? `${url.replace(/^file:\/\/.*?\/(node_modules|dist)\//, '$1/')}:${lineNumber + 1}` : '';
      const key = `${functionName || '(anonymous)'} ${where}`.trim();
      selfSamples.set(key, (selfSamples.get(key) ?? 0) + hits);
      total += hits;
    }
  }
  const rows = [...selfSamples].sort((a, b) => b[1] - a[1]).slice(0, top);
  const lines = rows.map(([name, hits]) => `| ${((hits / total) * 100).toFixed(1)}% | ${name} |`);
  return [
    `CPU profile of the server: ${(micros / 1e6).toFixed(1)} s, ${total} samples; top ${top} functions by self time`,
    '',
    '| self | function |',
    '|---|---|',
    ...lines,
  ].join('\n');
}
