import { afterAll, describe, expect, it } from 'vitest';
import { scanSite, type ScanResult } from '../../scanner/index.ts';
import { inUseAt, shippedData } from '../../scanner/vulndata/dataset.ts';
import { runNextApp, type Mode, type Router } from '../support/next-versions.ts';
import { readOnlyProxy, type ReadOnlyProxy } from '../support/read-only-proxy.ts';

// Real `next build` output at vulnerable and fixed versions of each line (tools/next-versions),
// served by `next start` (a live server) or as a static export, scanned through a proxy that
// passes on GET and HEAD only. The data is the shipped retire.js file, as current on the day after its date.
const data = () => {
  const shipped = shippedData();
  return inUseAt(shipped, Date.parse(shipped.retire!.info.updated_at) + 86_400_000);
};

const REACT2SHELL = 'GHSA-9qr9-h5gf-34mp';
const CASES: Array<{ version: string; router: Router; mode: Mode; react2shell: boolean }> = [
  { version: '15.5.6', router: 'app-router', mode: 'server', react2shell: true },
  { version: '15.5.7', router: 'app-router', mode: 'server', react2shell: false },
  { version: '16.0.6', router: 'app-router', mode: 'server', react2shell: true },
  { version: '16.0.7', router: 'app-router', mode: 'server', react2shell: false },
  { version: '15.5.6', router: 'pages-router', mode: 'server', react2shell: false },
  { version: '15.5.6', router: 'app-router', mode: 'export', react2shell: false },
];

const proxies: ReadOnlyProxy[] = [];
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers) await close();
});

async function scan(
  version: string,
  router: Router,
  mode: Mode,
): Promise<{ result: ScanResult; proxy: ReadOnlyProxy }> {
  const app = await runNextApp(version, router, mode);
  closers.push(() => app.close());
  const proxy = await readOnlyProxy(app.url);
  proxies.push(proxy);
  closers.push(() => proxy.close());
  const result = await scanSite(proxy.url, { allowPrivateTargets: true, vulnerabilityData: data() });
  return { result, proxy };
}

describe('Next.js by version and context, on real builds', () => {
  for (const { version, router, mode, react2shell } of CASES) {
    it(`${version} ${router} (${mode === 'server' ? 'next start' : 'static export'}): the exact version, React2Shell ${react2shell ? 'CRITICAL' : 'not reported'}`, async () => {
      const { result, proxy } = await scan(version, router, mode);
      const next = result.findings.filter((f) => f.finding_type.startsWith('known_vulnerable_nextjs_'));
      const shown = next.map((f) => f.actual_value ?? '').join('\n');
      // Every one of these versions has later advisories too, so each shows its exact version in one finding.
      expect(next).toHaveLength(1);
      expect(next[0]!.endpoint).toBe(`${new URL(proxy.url).origin}#next`);
      expect(shown).toContain(`Next.js next ${version} (exacte versie`);
      expect(result.coverage.find((c) => c.test === 'javascript_components')).toMatchObject({ status: 'completed' });
      if (react2shell) {
        expect(next[0]!.severity).toBe('CRITICAL');
        expect(shown).toMatch(
          new RegExp(
            `React2Shell ${REACT2SHELL} / CVE-2025-66478 \\(CRITICAL\\), opgelost in ${version.startsWith('15') ? '15.5.7' : '16.0.7'}`,
          ),
        );
        expect(shown).toContain('App Router, een draaiende Next.js-server');
      } else expect(shown).not.toContain(REACT2SHELL);
      expect(proxy.refused).toEqual([]);
    });
  }
});
