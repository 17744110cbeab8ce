import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SECRET_KIND_NAMES, SECRET_RULES } from '../scanner/secrets/secret-rules.ts';
import { CONFIG_SETTINGS } from '../infra/config.ts';

// The docs stay true: every setting documented once, in docs/operations.md; every relative link
// resolves; the README stays a five-minute read.

const ROOT = resolve(import.meta.dirname, '..');
const DOCS = [
  'README.md',
  'CHANGELOG.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The first cell of every table row, per file. */
function firstCells(file: string): string[] {
  return read(file)
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
    .map((line) => line.split('|')[1] ?? '');
}

describe('the documentation', () => {
  it('documents every setting the configuration reads exactly once, in the settings table of docs/operations.md', () => {
    const rows = DOCS.flatMap((file) =>
      firstCells(file).map((cell) => ({ file, names: [...cell.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]) })),
    );
    for (const setting of CONFIG_SETTINGS) {
      const where = rows.filter((row) => row.names.includes(setting)).map((row) => row.file);
      expect(where, setting).toEqual(['docs/operations.md']);
    }
  });

  it('has no relative link that leads nowhere', () => {
    const broken: string[] = [];
    for (const file of DOCS) {
      for (const [, target] of read(file).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:|#)/.test(target!)) continue;
        const path = target!.split('#')[0]!;
        if (!existsSync(resolve(ROOT, dirname(file), path))) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('lists every kind of client-code secret in docs/scanner.md with its severity, and no kind the table lacks', () => {
    const rows = read('docs/scanner.md')
      .split('\n')
      .flatMap((line) =>
        [...line.matchAll(/^\| `client_secret_([a-z0-9_]+)` \| (CRITICAL|HIGH) \|/g)].map((m) => [m[1], m[2]]),
      );
    expect(rows.sort()).toEqual(SECRET_KIND_NAMES.map((kind) => [kind, SECRET_RULES[kind].severity]).sort());
  });

  it('keeps the README within 300 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(300);
  });
});
