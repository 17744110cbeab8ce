import { describe, expect, it } from 'vitest';
import { retireAdvisories, severityOfCvss, smallestSafe, wordfenceAdvisories } from '../scanner/vulndata/advisories.ts';
import { literalAnchor } from '../scanner/vulndata/anchored-pattern.ts';
import { componentSeverity } from '../scanner/vulndata/component-kinds.ts';
import { shippedData } from '../scanner/vulndata/dataset.ts';
import { LiteralSearch } from '../scanner/vulndata/literal-search.ts';
import type { MatchedAdvisory } from '../scanner/vulndata/advisories.ts';
import { compareVersions, isVersion } from '../scanner/vulndata/versions.ts';
import type { CompactWordfence } from '../scanner/vulndata/wordfence-feed.ts';

describe('versions', () => {
  it('accepts release and pre-release numbers only: a hash, a date or a build id is no version', () => {
    for (const v of ['1.12.4', '3.0.0-rc.1', '1.9.0b1', '15.6.0-canary.61', '6.1', '4.17.21'])
      expect(isVersion(v), v).toBe(true);
    for (const v of ['dc5e7f18c8', '3.5.1.min', '2026-11-27', '1', 'v1.2.3', '1.2.3.min.dc5e7f18c8', 'abc'])
      expect(isVersion(v), v).toBe(false);
  });

  it('orders versions as retire.js and semver do', () => {
    const sorted = ['1.9.0', '1.9.0b1', '1.10.0', '1.9.0.1', '1.9.0-rc.2', '1.9.0-rc.10', '1.8.99'].sort(
      compareVersions,
    );
    // Pre-release words compare as text (b before rc), numbers as numbers (rc.2 before rc.10).
    expect(sorted).toEqual(['1.8.99', '1.9.0b1', '1.9.0-rc.2', '1.9.0-rc.10', '1.9.0', '1.9.0.1', '1.10.0']);
  });
});

describe('anchors and the one-pass search', () => {
  it('finds the longest literal every match must contain', () => {
    expect(literalAnchor('/\\*!? jQuery v(V)')).toBe(' jQuery v');
    expect(
      literalAnchor(
        '=\\"(V)\\"[\\s\\S]{10,100}Component[\\s\\S]{1,10}componentDidCatch[\\s\\S]{10,30}componentDidMount',
      ),
    ).toBe('componentDidCatch'); // the first of the longest: componentDidMount is as long
    // An optional character is not in every match; an alternation at the top has no common literal.
    expect(literalAnchor('abcdx?efgh')).toBe('abcd');
    expect(literalAnchor('jquery|zepto')).toBeNull();
    expect(literalAnchor('(?:a|b)\\.js')).toBeNull();
  });

  it('reports every literal where it starts, overlapping ones too', async () => {
    const search = new LiteralSearch(['he', 'she', 'his', 'hers']);
    expect(await search.find('ushers', 10, 1)).toEqual([[2], [1], [], [2]]);
  });

  it('stops after the bound of hits per literal, spaced a window apart, across the slices it reads in', async () => {
    const search = new LiteralSearch(['ab']);
    expect(await search.find('ab'.repeat(100), 3, 10)).toEqual([[0, 10, 20]]);
    // A literal that spans the border of two 128 KiB slices is still found.
    const text = `${'x'.repeat(128 * 1024 - 1)}ab`;
    expect(await search.find(text, 3, 10)).toEqual([[128 * 1024 - 1]]);
  });
});

describe('advisories', () => {
  const retire = shippedData().retire!.data;

  it('lists no advisory for a fixed version and names the smallest safe one for a vulnerable one', () => {
    expect(retireAdvisories(retire, 'jquery', '3.7.1').advisories).toEqual([]);
    const { advisories, fix } = retireAdvisories(retire, 'jquery', '3.4.1');
    expect(advisories.flatMap((a) => a.ids)).toEqual(expect.arrayContaining(['CVE-2020-11022', 'CVE-2020-11023']));
    expect(fix).toEqual({ version: '3.5.0', onLine: true });
  });

  it('weighs Next.js advisories by what the site shows: React2Shell only on a live App Router', () => {
    const live = retireAdvisories(retire, 'nextjs', '15.5.6', { router: 'app', server: 'live', vercel: false });
    const react2shell = live.advisories.find((a) => a.ids.includes('GHSA-9qr9-h5gf-34mp'));
    expect(react2shell).toMatchObject({ name: 'React2Shell', severity: 'CRITICAL', fixedIn: '15.5.7' });
    expect(react2shell!.ids).toContain('CVE-2025-66478');
    for (const context of [
      { router: 'app', server: 'static', vercel: false },
      { router: 'pages', server: 'live', vercel: false },
    ] as const) {
      const ids = retireAdvisories(retire, 'nextjs', '15.5.6', context).advisories.flatMap((a) => a.ids);
      expect(ids, JSON.stringify(context)).not.toContain('GHSA-9qr9-h5gf-34mp');
    }
    expect(
      retireAdvisories(retire, 'nextjs', '15.5.7', { router: 'app', server: 'live', vercel: false }).advisories.flatMap(
        (a) => a.ids,
      ),
    ).not.toContain('GHSA-9qr9-h5gf-34mp');
    // A development-server advisory is never reported; one for self-hosting is dropped on Vercel.
    const all = retireAdvisories(retire, 'nextjs', '15.0.0', {
      router: null,
      server: null,
      vercel: true,
    }).advisories.flatMap((a) => a.ids);
    expect(all).not.toContain('GHSA-3h52-269p-cp9r');
    expect(all).not.toContain('GHSA-9g9p-9gw9-jx7f');
  });

  it('matches WordPress per release branch: a backport release is clean', () => {
    const record = {
      id: 'r1',
      title: 'WordPress Core 4.7 - 6.8.2 - Stored XSS',
      cve: 'CVE-2025-58674',
      score: 5.4,
      ranges: [
        ['6.1', true, '6.1.8', true],
        ['6.8', true, '6.8.2', true],
        // A catch-all range as some records carry: the branch's patched version still wins.
        ['*', true, '6.8.2', true],
      ] as Array<[string, boolean, string, boolean]>,
      patched: ['6.1.9', '6.8.3'],
    };
    const data: CompactWordfence = { 'core:wordpress': [record] };
    expect(wordfenceAdvisories(data, 'core', 'wordpress', '6.1.9').advisories).toEqual([]);
    const hit = wordfenceAdvisories(data, 'core', 'wordpress', '6.1.8');
    expect(hit.advisories.map((a) => [a.ids, a.severity, a.fixedIn])).toEqual([
      [['Wordfence r1', 'CVE-2025-58674'], 'MEDIUM', '6.1.9'],
    ]);
    expect(hit.fix).toEqual({ version: '6.1.9', onLine: true });
  });

  it('bands CVSS as FIRST does', () => {
    expect([10, 9, 8.9, 7, 6.9, 4, 3.9, null].map(severityOfCvss)).toEqual([
      'CRITICAL',
      'CRITICAL',
      'HIGH',
      'HIGH',
      'MEDIUM',
      'MEDIUM',
      'LOW',
      'MEDIUM',
    ]);
  });

  it('finds the smallest safe version on the same line first', () => {
    const affected = (v: string) => compareVersions(v, '3.5.0') < 0;
    expect(smallestSafe('3.4.1', ['3.5.0', '2.2.0', '1.12.0', '3.0.0'], affected)).toEqual({
      version: '3.5.0',
      onLine: true,
    });
    expect(smallestSafe('1.12.4', ['3.5.0', '2.999.999'], affected)).toEqual({ version: '3.5.0', onLine: false });
    expect(smallestSafe('1.12.4', ['1.13.0'], () => true)).toBeNull();
  });
});

describe('severity of a component', () => {
  const advisory = (severity: MatchedAdvisory['severity'], serverSide = false): MatchedAdvisory => ({
    ids: ['GHSA-x'],
    severity,
    summary: '',
    fixedIn: null,
    conditions: [],
    serverSide,
  });

  it('takes the worst advisory, capped by the kind', () => {
    expect(componentSeverity('nextjs', [advisory('LOW'), advisory('CRITICAL')], true, false)).toBe('CRITICAL');
    expect(componentSeverity('javascript_library', [advisory('CRITICAL')], true, false)).toBe('HIGH');
    expect(componentSeverity('javascript_library', [advisory('HIGH', true)], true, false)).toBe('MEDIUM');
  });

  it('is one level lower for an inferred version, and then never CRITICAL', () => {
    expect(componentSeverity('wordpress_plugin', [advisory('CRITICAL')], false, false)).toBe('HIGH');
    expect(componentSeverity('wordpress_plugin', [advisory('MEDIUM')], false, false)).toBe('LOW');
    expect(componentSeverity('wordpress_plugin', [advisory('LOW')], false, false)).toBe('LOW');
  });

  it("is at most LOW for a distribution's copy", () => {
    expect(componentSeverity('javascript_library', [advisory('HIGH')], true, true)).toBe('LOW');
  });
});

describe('hostile script text', () => {
  it('stays linear on 3 MiB runs of the anchors and runtime markers, and finds nothing', async () => {
    const index = shippedData().retire!.index;
    const anchors = [
      ...new Set(
        index.retire.components.flatMap((c) => [...c.content, ...c.replace.map((r) => r.pattern)]).map((p) => p.anchor),
      ),
    ];
    for (const prefix of [...anchors.slice(0, 40), 'window.next={version:', '{chain:false}),a.VERSION=', 'a']) {
      const text = prefix.repeat(Math.ceil((3 * 1024 * 1024) / prefix.length));
      expect(await index.scriptSightings(text, 'https://example.nl/a.js'), prefix).toEqual([]);
    }
  });
});

describe('script URLs', () => {
  it('reads a CDN package URL as exact, a file name as inferred, and never a content hash as a version', () => {
    const index = shippedData().retire!.index;
    const seen = (url: string) => index.urlSightings(url).map((s) => [s.component, s.version, s.method]);
    expect(seen('https://cdn.jsdelivr.net/npm/jquery@1.12.4/dist/jquery.min.js')).toEqual([
      ['jquery', '1.12.4', 'cdn_url'],
    ]);
    expect(seen('https://unpkg.com/lodash@4.17.15/lodash.min.js')).toEqual([['lodash', '4.17.15', 'cdn_url']]);
    expect(seen('https://cdnjs.cloudflare.com/ajax/libs/angular.js/1.7.9/angular.min.js')).toEqual([
      ['angularjs', '1.7.9', 'cdn_url'],
    ]);
    // Webflow's hosted jQuery: the hash before .js goes, the version is the name's.
    expect(seen('https://d3e54v103j8qbb.cloudfront.net/js/jquery-3.5.1.min.dc5e7f18c8.js')).toEqual([
      ['jquery', '3.5.1', 'file_name'],
    ]);
    expect(seen('https://example.nl/wp-includes/js/jquery/jquery.min.js?ver=3.6.1')).toEqual([
      ['jquery', '3.6.1', 'query_ver'],
    ]);
    expect(seen('https://example.nl/js/app.dc5e7f18c8.js')).toEqual([]);
    expect(seen(`https://example.nl/${'a'.repeat(3000)}/jquery-1.12.4.min.js`)).toEqual([]);
  });
});
