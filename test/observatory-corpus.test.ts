import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { contextFor, runChecks } from '../scanner/analyze.ts';
import { CATALOG } from '../scanner/catalog/index.ts';
import { toHeaderMap } from './support/headers.ts';
import { CORS_TEST_ORIGIN } from '../scanner/probes/retriever.ts';
import type { ScanEvidence } from '../scanner/types.ts';

// Cases and verdicts of Mozilla's HTTP Observatory; source and licence in test/data/observatory/README.md.
const CORPUS = fileURLToPath(new URL('./data/observatory/headers.jsonl', import.meta.url));

interface CorpusCase {
  test: string;
  sessionUrl: string;
  auto: { status: number; headers: Record<string, string | string[]> };
  https: { verified: boolean; headers: Record<string, string | string[]> } | null;
  http: { status: number } | null;
  httpRedirects: Array<{ url: string; status: number }>;
  cors: { headers: Record<string, string | string[]>; requestHeaders: Record<string, string> } | null;
  html: string | null;
  result: string;
  pass: boolean;
}

/** The evidence our retriever would have gathered for the page the Observatory saw. */
function evidenceFor(c: CorpusCase): ScanEvidence {
  const corsCase = c.test === 'cross-origin-resource-sharing';
  const pageHeaders = corsCase && c.cors ? c.cors.headers : c.auto.headers;
  const host = new URL(c.sessionUrl).hostname;
  return {
    target: c.sessionUrl,
    scannedAt: new Date(),
    page: {
      url: c.sessionUrl,
      status: c.auto.status,
      headers: toHeaderMap(pageHeaders),
      html: c.html,
      requestOrigin: (corsCase && c.cors?.requestHeaders.origin) || CORS_TEST_ORIGIN,
    },
    https: c.https ? { verified: c.https.verified, headers: toHeaderMap(c.https.headers) } : null,
    httpRedirects: c.http ? c.httpRedirects : [],
    tls: c.https
      ? {
          host,
          port: 443,
          protocols: { TLSv1: false, 'TLSv1.1': false, 'TLSv1.2': true, 'TLSv1.3': true },
          certificate: null,
          ciphers: null,
          features: null,
        }
      : null,
    securityTxt: null,
    caa: null,
    notFoundBaselines: [],
    probes: [],
    clientCode: null,
    backends: null,
    middleware: null,
    internetnl: null,
    mail: null,
    libraries: null,
    wordpress: null,
  };
}

function verdict(c: CorpusCase): { flagged: boolean; severe: boolean } {
  const about = runChecks(contextFor(evidenceFor(c)))
    .observations.map((o) => CATALOG[o.type]!)
    .filter((entry) => entry.observatory === c.test);
  return { flagged: about.length > 0, severe: about.some((entry) => entry.severity !== 'LOW') };
}

describe('agreement with Mozilla HTTP Observatory verdicts', () => {
  const cases = readFileSync(CORPUS, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as CorpusCase);

  it('flags failing headers and raises nothing MEDIUM+ on passing ones in at least 95% of cases', () => {
    const disagreements: string[] = [];
    const perTest = new Map<string, { agree: number; total: number }>();
    for (const c of cases) {
      const { flagged, severe } = verdict(c);
      const agrees = c.pass ? !severe : flagged;
      const tally = perTest.get(c.test) ?? { agree: 0, total: 0 };
      perTest.set(c.test, { agree: tally.agree + (agrees ? 1 : 0), total: tally.total + 1 });
      if (!agrees) disagreements.push(`${c.test}: ${c.result} (pass=${c.pass})`);
    }
    const agreement = (cases.length - disagreements.length) / cases.length;
    console.log(
      `Observatory agreement: ${(agreement * 100).toFixed(1)}% (${cases.length - disagreements.length}/${cases.length})`,
    );
    for (const [test, { agree, total }] of perTest) console.log(`  ${test}: ${agree}/${total}`);
    if (disagreements.length) console.log(`  disagreements:\n    ${disagreements.join('\n    ')}`);
    expect(cases.length).toBeGreaterThan(200);
    expect(agreement).toBeGreaterThanOrEqual(0.95);
  });
});
