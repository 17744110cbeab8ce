/**
 * Recall of the secret scan on TruffleHog's own pattern tests (github.com/trufflesecurity/trufflehog,
 * pkg/detectors/<vendor>/<vendor>_test.go, AGPL-3.0): every value a test `want`s, put into browser
 * code twice, as `new Xr({apiKey:"…"})` (found by its format alone) and as a Bearer header of a
 * fetch to the vendor's API host (the first https URL of the detector's own source). Nothing of it is
 * stored in this repository; point the script at a checkout:
 *
 *   npm run recall:trufflehog -- /path/to/trufflehog/pkg/detectors
 *
 * Values the placeholder filter refuses (`abcd1234…`) and compound values (`id:secret`, which no
 * single position in browser code holds) are counted apart. The tests' own negatives (`invalidPattern`
 * literals) go into the same two places; any reported is a false positive.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isPlaceholder } from '../scanner/secrets/secret-placeholders.ts';
import { findSecrets } from '../scanner/secrets/secret-scan.ts';

const root = process.argv[2];
if (!root) {
  console.error('usage: npm run recall:trufflehog -- <trufflehog>/pkg/detectors');
  process.exit(2);
}

/** Directories holding a detector and its pattern test. */
function* detectorDirs(dir: string): Iterable<string> {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (!statSync(path).isDirectory()) continue;
    if (readdirSync(path).some((file) => /(?<!integration)_test\.go$/.test(file))) yield path;
    yield* detectorDirs(path);
  }
}

const goStrings = (text: string) =>
  [...text.matchAll(/"((?:[^"\\\n]|\\.)*)"|`([^`]*)`/g)].map((m) => m[2] ?? JSON.parse(`"${m[1]}"`));

const IGNORED_HOSTS = /(^|\.)(github\.com|githubusercontent\.com|trufflesecurity\.com|golang\.org|example\.com)$/;
function apiHost(dir: string): string | undefined {
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.go') && !name.endsWith('_test.go'))) {
    // The URLs the detector calls, not those of its comments (documentation pages).
    const code = readFileSync(join(dir, file), 'utf8').replace(/^\s*\/\/.*$/gm, '');
    for (const match of code.matchAll(/https:\/\/([a-z0-9-]+(?:\.[a-z0-9-]+)+)/gi)) {
      const host = match[1]!.toLowerCase();
      if (!IGNORED_HOSTS.test(host)) return host;
    }
  }
  return undefined;
}

const totals = {
  kinds: 0,
  kindsFound: 0,
  values: 0,
  byFormat: 0,
  byHost: 0,
  found: 0,
  placeholders: 0,
  compound: 0,
  invalid: 0,
  invalidReported: 0,
};
const reportedInvalid: string[] = [];
const missed: string[] = [];
for (const dir of detectorDirs(root)) {
  const wants = readdirSync(dir)
    .filter((file) => /(?<!integration)_test\.go$/.test(file))
    .flatMap((file) => {
      const text = readFileSync(join(dir, file), 'utf8');
      // `want: []string{validPattern}`: a name assigned a string literal in the same file.
      const named = new Map(
        [...text.matchAll(/^\s*(\w+)\s*:?=\s*("(?:[^"\\\n]|\\.)*"|`[^`]*`)\s*$/gm)].map((m) => [
          m[1]!,
          goStrings(m[2]!)[0]!,
        ]),
      );
      return [...text.matchAll(/want:\s*\[\]string\{([^}]*)\}/g)].flatMap((m) => [
        ...goStrings(m[1]!),
        ...(m[1]!.match(/^\s*(\w+)\s*,?\s*$/)
          ? [named.get(m[1]!.trim().replace(/,$/, ''))].filter((v) => v !== undefined)
          : []),
      ]);
    });
  const values = [...new Set(wants)].filter((value) => value.length >= 8);
  if (values.length === 0) continue;
  const host = apiHost(dir) ?? 'api.unknown-vendor.dev';
  // The detector's own negatives: `invalidPattern… = "…"`, one line each, put where the positives go.
  const invalids = readdirSync(dir)
    .filter((file) => /(?<!integration)_test\.go$/.test(file))
    .flatMap((file) =>
      [...readFileSync(join(dir, file), 'utf8').matchAll(/^\s*invalid\w*\s*:?=\s*("(?:[^"\\\n]|\\.)*")\s*$/gim)].map(
        (m) => goStrings(m[1]!)[0]!,
      ),
    )
    .filter((value) => value.trim().length >= 8);
  for (const value of new Set(invalids)) {
    totals.invalid += 1;
    const reported = [
      ...(await findSecrets(`const c=new Xr({apiKey:${JSON.stringify(value)}});`)),
      ...(await findSecrets(
        `fetch("https://${host}/v1",{headers:{Authorization:${JSON.stringify(`Bearer ${value}`)}}});`,
      )),
    ];
    if (reported.length > 0) {
      totals.invalidReported += 1;
      reportedInvalid.push(
        `${dir.slice(root.length + 1)} (${host}): ${process.env.RECALL_SHOW ? value : `${value.slice(0, 6)}…`} as ${reported.map((r) => r.kind).join(', ')}`,
      );
    }
  }
  let kindFound = false;
  let counted = 0;
  for (const value of values) {
    if (!value.includes('://') && /[\s:|;,]/.test(value)) {
      totals.compound += 1;
      continue;
    }
    if (isPlaceholder(value, undefined, undefined)) {
      totals.placeholders += 1;
      continue;
    }
    counted += 1;
    totals.values += 1;
    const byFormat = (await findSecrets(`const c=new Xr({apiKey:${JSON.stringify(value)}});`)).length > 0;
    const byHost =
      (await findSecrets(`fetch("https://${host}/v1",{headers:{Authorization:${JSON.stringify(`Bearer ${value}`)}}});`))
        .length > 0;
    totals.byFormat += Number(byFormat);
    totals.byHost += Number(byHost);
    totals.found += Number(byFormat || byHost);
    kindFound ||= byFormat || byHost;
    if (!byFormat && !byHost)
      missed.push(
        `${dir.slice(root.length + 1)} (${host}): ${process.env.RECALL_SHOW ? value : `${value.slice(0, 6)}…`} (${value.length})`,
      );
  }
  if (counted === 0) continue;
  totals.kinds += 1;
  totals.kindsFound += Number(kindFound);
}
const pct = (a: number, b: number) => `${a}/${b} (${b ? Math.round((a / b) * 100) : 0}%)`;
console.log(`detectors with a value to test: ${pct(totals.kindsFound, totals.kinds)} found`);
console.log(
  `values: ${pct(totals.found, totals.values)} found; by format alone ${pct(totals.byFormat, totals.values)}, beside the API host ${pct(totals.byHost, totals.values)}`,
);
console.log(`set apart: ${totals.placeholders} placeholders, ${totals.compound} compound values`);
console.log(
  `invalid patterns reported (false positives): ${pct(totals.invalidReported, totals.invalid)}\n${reportedInvalid.join('\n')}`,
);
console.log(`missed:\n${missed.join('\n')}`);
