import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { shippedData } from '../scanner/vulndata/dataset.ts';
import { VERSION_PATTERN } from '../scanner/vulndata/versions.ts';

// The `retire` CLI (a devDependency, test oracle only) and our matcher over the same files with the
// same repository file: every version retire.js finds of a library with advisories, we find too.
// Our additions are the only differences, each named here and in docs/scanner.md.
const ROOT = join(import.meta.dirname, '..');
const DATA = join(import.meta.dirname, 'data');
const dir = mkdtempSync(join(tmpdir(), 'retire-diff-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every fixture script under a folder of its own, by its plain file name (retire.js reads versions from names too). */
function fixtures(): Map<string, string> {
  const files = new Map<string, string>();
  let n = 0;
  const add = (name: string, text: string) => {
    const folder = join(dir, 'js', `f${++n}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, name), text);
    files.set(`f${n}/${name}`, text);
  };
  for (const folder of ['libraries', 'bundles'])
    for (const file of readdirSync(join(DATA, folder)).filter((f) => f.endsWith('.gz')))
      add(
        file.slice(0, -3).split('__').pop()!.split('_').pop()!,
        gunzipSync(readFileSync(join(DATA, folder, file))).toString('utf8'),
      );
  for (const variant of ['app-router', 'pages-router']) {
    const build = JSON.parse(
      gunzipSync(readFileSync(join(DATA, 'nextjs', `${variant}.json.gz`))).toString('utf8'),
    ) as Record<string, string>;
    for (const [path, text] of Object.entries(build)) if (path.endsWith('.js')) add(path.split('/').pop()!, text);
  }
  return files;
}

/**
 * retire.js's version as our strict syntax reads it: a canary build's commit hash and date
 * (19.3.0-canary-278794d7-20261002) are not part of the version, which orders the same.
 */
const strict = (version: string) => new RegExp(`^${VERSION_PATTERN}`, 'i').exec(version)?.[0] ?? version;

describe('our matcher against retire.js itself', () => {
  it('finds every version retire.js finds, and differs only by our documented additions', async () => {
    const files = fixtures();
    const repo = join(dir, 'repo.json');
    writeFileSync(repo, gunzipSync(readFileSync(join(ROOT, 'vulndata', 'retire', 'jsrepository-v5.json.gz'))));
    const out = join(dir, 'out.json');
    execFileSync(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'retire', 'lib', 'cli.js'),
        '--jspath',
        join(dir, 'js'),
        '--jsrepo',
        repo,
        '--outputformat',
        'json',
        '--outputpath',
        out,
        '--verbose',
        '--exitwith',
        '0',
      ],
      { stdio: 'ignore' },
    );
    const data = shippedData().retire!;
    const judged = new Set(data.index.retire.components.map((c) => c.name));
    const theirs = new Set<string>();
    for (const file of (
      JSON.parse(readFileSync(out, 'utf8')) as {
        data: Array<{ file: string; results: Array<{ component: string; version: string }> }>;
      }
    ).data)
      for (const r of file.results)
        if (judged.has(r.component))
          theirs.add(`${file.file.split(`${join(dir, 'js')}/`)[1]} ${r.component} ${strict(r.version)}`);
    const ours = new Set<string>();
    for (const [path, text] of files)
      for (const s of await data.index.scriptSightings(text, `https://example.nl/${path}`))
        ours.add(`${path} ${s.component} ${s.version}`);

    expect([...theirs].filter((t) => !ours.has(t))).toEqual([]);
    const additions = [...ours].filter((o) => !theirs.has(o));
    // lodash's minified build names its version only in code (X.VERSION after its mixin); Next.js's
    // chunks set window.next={version:…}, which retire.js reads only with its AST queries.
    for (const addition of additions) expect(addition, addition).toMatch(/ (lodash 4\.17\.15|nextjs 16\.4\.6)$/);
    expect(additions.filter((a) => a.endsWith('lodash 4.17.15'))).toHaveLength(1);
    expect(theirs.size).toBeGreaterThanOrEqual(14);
  });
});
