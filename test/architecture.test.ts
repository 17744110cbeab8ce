import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SOURCE_FOLDERS = [
  'scanner',
  'domain',
  'db',
  'services',
  'infra',
  'routers',
  'openapi',
  'server',
  'bin',
  'client',
  'web',
  'bench',
  'test',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'data' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(path) ? [path] : [];
  });
}

describe('architecture', () => {
  it('has no import circle and no import against the layers (.dependency-cruiser.cjs)', () => {
    const out = execFileSync(
      'npx',
      ['depcruise', '--config', '.dependency-cruiser.cjs', '--output-type', 'json', ...SOURCE_FOLDERS.slice(0, 11)],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    const { summary } = JSON.parse(out) as {
      summary: { violations: Array<{ rule: { name: string }; from: string; to: string }>; totalCruised: number };
    };
    expect(summary.totalCruised).toBeGreaterThan(100);
    expect(summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);
  });

  it('uses no double cast (as unknown as, as never) anywhere', () => {
    const offenders = SOURCE_FOLDERS.flatMap(sourceFiles)
      .filter((file) => file !== join('test', 'architecture.test.ts'))
      .filter((file) => /\bas (unknown as|never)\b/.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('reads the time in services/ and db/ from deps.clock only (migrations aside), so tests can move it', () => {
    // Two reads of the machine's clock are the real time on purpose: an id's time bits only order
    // ids, and a webhook signature's timestamp is checked by the receiver against its own clock.
    const REAL_TIME = new Set([join('db', 'ids.ts'), join('services', 'webhook-delivery', 'sender.ts')]);
    const offenders = ['services', 'db']
      .flatMap(sourceFiles)
      .filter((file) => !file.startsWith(join('db', 'migrations')) && !REAL_TIME.has(file))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, i) => [`${file}:${i + 1}`, line] as const)
          .filter(([, line]) => /\bDate\.now\(\)|new Date\(\)/.test(line))
          .map(([place]) => place),
      );
    expect(offenders).toEqual([]);
  });
});
