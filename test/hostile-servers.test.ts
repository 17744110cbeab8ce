import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSite, vouchForSite } from '../services/admin.ts';
import { startApi, seedTenant, type Tenant, type TestApi } from './support/api.ts';
import { HOSTILE_CASES, hostileCertificate, type HostileSite } from './support/hostile-sites.ts';

// Every hostile server is scanned through the API of one running service, several at a time, each
// started on demand as a client meets it. The service must answer each with a stored result or a
// clear 400 within the documented bound (the scan deadline plus a margin for storing), answer
// /healthz within a second right after, keep its memory bounded and stay healthy. The operator
// vouches for every site, so the intrusive tests (exposure probes and their not-found baselines,
// where a hostile body once stalled the loop for seconds) meet each server too.
const DEADLINE_MS = 6_000;
const BOUND_MS = DEADLINE_MS + 4_000;

let api: TestApi;
let tenant: Tenant;
const sites: HostileSite[] = [];
let peakRss = 0;
let startRss = 0;
let sampler: NodeJS.Timeout;
// The service runs in this process: its event loop is this one, watched through the whole sequence.
const loopDelay = monitorEventLoopDelay({ resolution: 20 });

beforeAll(async () => {
  api = await startApi({
    SCANNER_REQUEST_TIMEOUT: '2s',
    SCANNER_DEADLINE: `${DEADLINE_MS}ms`,
    MAX_CONCURRENT_SCANS: '64',
    MAX_CONCURRENT_SCANS_PER_TENANT: '64',
  });
  tenant = await seedTenant(api.db, 'http://127.0.0.1:9/', { plan: 'enterprise' });
  // The certificate is made first: synchronous key generation in this process is the test's own
  // work, not the service's, and must not count against its loop. The servers start on demand.
  hostileCertificate();
  startRss = process.memoryUsage().rss;
  sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  loopDelay.enable();
}, 60_000);

afterAll(async () => {
  clearInterval(sampler);
  await Promise.all(sites.map((site) => site.close()));
  await api.close();
});

describe('scans of hostile servers through the API', () => {
  it.concurrent.each(HOSTILE_CASES)(
    '$name: answers $expect within the bound',
    async ({ name, expect: status, readsPage, stalls, start }) => {
      const site = await start();
      sites.push(site);
      const deps = { db: api.db, config: api.config };
      const record = await createSite(deps, {
        tenant_id: tenant.tenantId,
        name: `Vijandige site ${name}`,
        url: site.url,
      });
      await vouchForSite(deps, { site_id: record.id, operator: 'test-suite', reason: 'vijandige fixture' });
      const began = Date.now();
      const response = await api.call('POST', '/api/agent/scan', { key: tenant.key, body: { site_id: record.id } });
      const elapsed = Date.now() - began;
      expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(status);
      expect(elapsed).toBeLessThan(BOUND_MS);
      // The service answers everyone else right after, whatever this server sent.
      const health = await fetch(`${api.url}/healthz`, { signal: AbortSignal.timeout(1_000) });
      expect(health.status).toBe(200);
      if (status === 400) expect(response.body.error).toMatch(/\w{10,}/);
      else expect(response.body).toMatchObject({ scan_id: expect.any(String), grade: expect.any(String) });
      if (status === 201) {
        const detail = (await api.call('GET', `/api/agent/scans/${response.body.scan_id}`, { key: tenant.key })).body;
        expect(detail.failed_checks).toEqual(expect.any(Array));
        const types = detail.findings.map((f: { finding_type: string }) => f.finding_type);
        if (readsPage) {
          expect(detail.detected_platform).toBe('wordpress');
          expect(types).not.toContain('x_frame_options_missing');
        }
        if (stalls) expect(detail.failed_checks).toContain('exposures');
      }
    },
  );

  it('keeps memory bounded, never blocks its event loop for a second, and answers /healthz afterwards', async () => {
    loopDelay.disable();
    expect(peakRss - startRss).toBeLessThan(300 * 1024 * 1024);
    // A blocked loop is a service that answers nothing, /healthz included (histogram values are ns).
    console.info(
      `hostile sequence: the service's event-loop delay max ${Math.round(loopDelay.max / 1e6)} ms, p99 ${Math.round(loopDelay.percentile(99) / 1e6)} ms, mean ${Math.round(loopDelay.mean / 1e6)} ms`,
    );
    expect(loopDelay.max / 1e6).toBeLessThan(1_000);
    const health = await api.call('GET', '/healthz');
    expect(health.status).toBe(200);
  });
});
