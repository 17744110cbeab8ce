import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSite } from '../services/admin.ts';
import { startApi, seedTenant, type Tenant, type TestApi } from './support/api.ts';
import { HOSTILE_CASES, type HostileSite } from './support/hostile-sites.ts';

// Every hostile server is scanned through the API of one running service, several at a time. The
// service must answer each with a stored result or a clear 400 within the documented bound (the scan
// deadline plus a margin for storing), keep its memory bounded and stay healthy.
const DEADLINE_MS = 6_000;
const BOUND_MS = DEADLINE_MS + 4_000;

let api: TestApi;
let tenant: Tenant;
const sites: HostileSite[] = [];
let started: Map<string, HostileSite>;
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
  // The servers start first: their certificates are made with synchronous key generation in this
  // process, which is the test's own work, not the service's, and must not count against its loop.
  started = new Map(await Promise.all(HOSTILE_CASES.map(async (c) => [c.name, await c.start()] as const)));
  sites.push(...started.values());
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
    async ({ name, expect: status, readsPage, stalls }) => {
      const site = started.get(name)!;
      const record = await createSite(
        { db: api.db, config: api.config },
        {
          tenant_id: tenant.tenantId,
          name: 'Vijandige site',
          url: site.url,
        },
      );
      const began = Date.now();
      const response = await api.call('POST', '/api/agent/scan', { key: tenant.key, body: { site_id: record.id } });
      const elapsed = Date.now() - began;
      expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(status);
      expect(elapsed).toBeLessThan(BOUND_MS);
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
    expect(loopDelay.max / 1e6).toBeLessThan(1_000);
    const health = await api.call('GET', '/healthz');
    expect(health.status).toBe(200);
  });
});
