import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanSite, type ScanResult } from '../scanner/index.ts';
import { inUseAt, shippedData, VULNDATA_UNUSABLE_AFTER_DAYS } from '../scanner/vulndata/dataset.ts';
import { startSite, type FixtureSite } from './support/fixture-sites.ts';

// npm's own files of each release (test/data/libraries/SOURCES.md), served gzipped as a CDN would,
// beside the current library builds of the false-positive corpus (test/data/bundles).
const DATA = join(import.meta.dirname, 'data');
const read = (folder: string, file: string) => gunzipSync(readFileSync(join(DATA, folder, file))).toString('utf8');
const DAY = 86_400_000;
const retireDate = () => Date.parse(shippedData().retire!.info.updated_at);
/** The shipped data as on the day after its date; the tests of its age move this clock. */
const dataAt = (days: number) => inUseAt(shippedData(), retireDate() + days * DAY);

const libraries = readdirSync(join(DATA, 'libraries')).filter((f) => f.endsWith('.gz'));
const bundles = readdirSync(join(DATA, 'bundles')).filter((f) => f.endsWith('.gz'));
const js = (body: string) => ({ headers: { 'content-type': 'application/javascript; charset=utf-8' }, body });
const page = (scripts: string[]) => ({
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!doctype html><html lang="nl"><head><title>Winkel</title>${scripts.map((s) => `<script src="${s}"></script>`).join('')}</head><body>Welkom</body></html>`,
});

const CROSS_SITE = [
  // Named on other sites' CDNs: matched by URL, never fetched.
  'https://cdn.jsdelivr.net/npm/jquery@2.2.4/dist/jquery.min.js',
  'https://unpkg.com/underscore@1.12.0/underscore-min.js',
  // Webflow's hosted jQuery, a content hash after the version: 3.4.1 by the name alone, so inferred.
  'https://d3e54v103j8qbb.cloudfront.net/js/jquery-3.4.1.min.dc5e7f18c8.js',
];

let site: FixtureSite;
let result: ScanResult;
const sent: string[] = [];

beforeAll(async () => {
  const own = [...libraries.map((f) => `/lib/${f.slice(0, -3)}`), ...bundles.map((f) => `/bundles/${f.slice(0, -3)}`)];
  site = await startSite({
    gzip: true,
    routes: {
      '/': page([...own, ...CROSS_SITE]),
      ...Object.fromEntries(libraries.map((f) => [`/lib/${f.slice(0, -3)}`, js(read('libraries', f))])),
      ...Object.fromEntries(bundles.map((f) => [`/bundles/${f.slice(0, -3)}`, js(read('bundles', f))])),
    },
  });
  result = await scanSite(site.url, { allowPrivateTargets: true, probeExposures: false, vulnerabilityData: dataAt(1) });
  sent.push(...site.requests);
});
afterAll(() => site.close());

const components = (r: ScanResult) =>
  r.findings.filter((f) => f.finding_type.startsWith('known_vulnerable_javascript_library_'));
const at = (r: ScanResult, fragment: string) => components(r).find((f) => f.endpoint.endsWith(`#${fragment}`));

describe('JavaScript libraries with published advisories', () => {
  it('reports each vulnerable npm release once, with its exact version, advisories and fix', () => {
    const expected: Record<string, { version: string; severity: string; ids: string[]; fix: string }> = {
      'jquery@1': { version: '1.12.4', severity: 'MEDIUM', ids: ['CVE-2020-11022', 'CVE-2019-11358'], fix: '3.5.0' },
      'jquery@3': {
        version: '3.4.1',
        severity: 'MEDIUM',
        ids: ['GHSA-gxr4-xjj5-5px2', 'CVE-2020-11023'],
        fix: '3.5.0',
      },
      'lodash@4': { version: '4.17.15', severity: 'HIGH', ids: ['CVE-2020-8203', 'CVE-2021-23337'], fix: '4.18.0' },
      'angular@1': { version: '1.7.9', severity: 'HIGH', ids: ['CVE-2020-7676'], fix: '' },
      'bootstrap@3': { version: '3.3.7', severity: 'MEDIUM', ids: ['CVE-2019-8331', 'CVE-2018-14040'], fix: '4.3.1' },
      'moment@2': { version: '2.29.1', severity: 'HIGH', ids: ['CVE-2022-24785', 'CVE-2022-31129'], fix: '2.29.4' },
      'handlebars@4': { version: '4.0.11', severity: 'HIGH', ids: ['CVE-2019-19919'], fix: '4.7.9' },
      'dompurify@2': { version: '2.0.8', severity: 'HIGH', ids: ['CVE-2020-26870'], fix: '3.4.13' },
      'axios@0.21': { version: '0.21.1', severity: 'HIGH', ids: ['CVE-2021-3749'], fix: '1.18.0' },
    };
    for (const [fragment, want] of Object.entries(expected)) {
      const finding = at(result, fragment);
      expect(finding, fragment).toBeDefined();
      expect(finding!.severity, fragment).toBe(want.severity);
      expect(finding!.finding_type).toBe(`known_vulnerable_javascript_library_${want.severity.toLowerCase()}`);
      expect(finding!.actual_value).toContain(`${want.version} (exacte versie`);
      expect(finding!.actual_value).toContain(`Versie ${want.version} gemeld door retire.js`);
      expect(finding!.actual_value).toContain('gegevens van 2026-08-20');
      for (const id of want.ids) expect(finding!.actual_value, fragment).toContain(id);
      if (want.fix)
        expect(finding!.actual_value).toMatch(new RegExp(`Oplossing: \\S+ ${want.version} → ${want.fix}$`, 'm'));
      else expect(finding!.actual_value).toContain('Er is geen veilige versie bekend');
    }
    // lodash's full and minified builds are one finding; the minified one names its version only in code.
    expect(components(result).filter((f) => f.endpoint.endsWith('#lodash@4'))).toHaveLength(1);
  });

  it('names no advisory for jQuery 3.7.1, Bootstrap 4.3.1 or the current library builds', () => {
    const shown = components(result).map((f) => f.actual_value ?? '');
    for (const clean of [
      'jquery 3.7.1',
      'bootstrap 4.3.1',
      'jquery 4.0.0',
      'lodash 4.18.1',
      'moment 2.31.0',
      'axios 1.',
    ]) {
      expect(
        shown.filter((v) => v.includes(`bibliotheek ${clean}`)),
        clean,
      ).toEqual([]);
    }
    expect(
      components(result)
        .map((f) => f.endpoint.split('#')[1])
        .sort(),
    ).toEqual(
      [
        'angular@1',
        'axios@0.21',
        'bootstrap@3',
        'dompurify@2',
        'handlebars@4',
        'jquery@1',
        'jquery@2',
        'jquery@3',
        'lodash@4',
        'moment@2',
        'underscore@1',
      ].sort(),
    );
  });

  it('matches cross-site script URLs without fetching them: a CDN URL is exact, a file name inferred and one level lower', () => {
    const cdn = at(result, 'jquery@2')!;
    expect(cdn.actual_value).toContain(
      'jquery 2.2.4 (exacte versie: versie in de URL van een publiek CDN, https://cdn.jsdelivr.net/npm/jquery@2.2.4/',
    );
    expect(at(result, 'underscore@1')!.actual_value).toContain('underscore 1.12.0 (exacte versie');
    // jquery@3 is the exact 3.4.1 served here; the Webflow copy of the same release is the inferred duplicate.
    expect(at(result, 'jquery@3')!.actual_value).toContain('exacte versie');
    // Only this site was asked, and only with GET.
    expect(sent.every((r) => r.startsWith('GET '))).toBe(true);
  });

  it('covers the page once every script was read and the data is current', () => {
    expect(result.coverage.filter((c) => c.test === 'javascript_components')).toEqual([
      { test: 'javascript_components', subject: new URL(site.url).origin, status: 'completed', reason: null },
    ]);
  });
});

describe('the age of the data', () => {
  let small: FixtureSite;
  beforeAll(async () => {
    small = await startSite({
      routes: {
        '/': page(['/lib/jquery.min.js']),
        '/lib/jquery.min.js': js(read('libraries', 'jquery-1.12.4__dist_jquery.min.js.gz')),
      },
    });
  });
  afterAll(() => small.close());

  it(`still reports findings from data older than ${VULNDATA_UNUSABLE_AFTER_DAYS} days, but never as an all-clear`, async () => {
    const old = await scanSite(small.url, {
      allowPrivateTargets: true,
      probeExposures: false,
      vulnerabilityData: dataAt(VULNDATA_UNUSABLE_AFTER_DAYS + 5),
    });
    expect(components(old).map((f) => f.endpoint.split('#')[1])).toEqual(['jquery@1']);
    expect(old.coverage.find((c) => c.test === 'javascript_components')).toEqual({
      test: 'javascript_components',
      subject: new URL(small.url).origin,
      status: 'failed',
      reason: `de kwetsbaarheidsgegevens van retire.js zijn ${VULNDATA_UNUSABLE_AFTER_DAYS + 5} dagen oud (meer dan ${VULNDATA_UNUSABLE_AFTER_DAYS})`,
    });
    expect(old.failed_checks).toEqual(expect.arrayContaining(['javascript_libraries', 'nextjs_version']));
  });

  it('does not run without data, and says so', async () => {
    const bare = await scanSite(small.url, { allowPrivateTargets: true, probeExposures: false });
    expect(components(bare)).toEqual([]);
    expect(bare.coverage.find((c) => c.test === 'javascript_components')).toMatchObject({
      status: 'skipped',
      reason: 'geen kwetsbaarheidsgegevens meegegeven',
    });
  });
});

describe('copies a distribution maintains', () => {
  it("rates WordPress's bundled jQuery (?ver=) and Debian's /javascript/ copy at most LOW, saying why", async () => {
    const lodash = read('libraries', 'lodash-4.17.15__lodash.min.js.gz');
    const distro = await startSite({
      routes: {
        '/': page(['/wp-includes/js/jquery/jquery.min.js?ver=3.4.1', '/javascript/lodash/lodash.min.js']),
        '/wp-includes/js/jquery/jquery.min.js': js('/* a copy whose text names no version */ window.jQuery = {};'),
        '/javascript/lodash/lodash.min.js': js(lodash),
      },
    });
    try {
      const scanned = await scanSite(distro.url, {
        allowPrivateTargets: true,
        probeExposures: false,
        vulnerabilityData: dataAt(1),
      });
      const found = components(scanned);
      expect(found.map((f) => [f.endpoint.split('#')[1], f.severity])).toEqual(
        expect.arrayContaining([
          ['jquery@3', 'LOW'],
          ['lodash@4', 'LOW'],
        ]),
      );
      expect(at(scanned, 'jquery@3')!.actual_value).toContain('afgeleide versie: ?ver= in de URL');
      expect(at(scanned, 'lodash@4')!.actual_value).toContain('ernst ten hoogste LOW');
    } finally {
      await distro.close();
    }
  });
});
