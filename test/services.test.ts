import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor, type Actor } from '../domain/actor.ts';
import { Forbidden, Invalid, NotFound } from '../domain/errors.ts';
import { getScan, listScans, triggerScan } from '../services/scans.ts';
import { searchFindings } from '../services/findings.ts';
import { seedTenant, startApi, type Tenant, type TestApi } from './support/api.ts';
import { startSite, type FixtureSite } from './support/fixture-sites.ts';

// Services are plain functions of (deps, actor, input): no request, no key. These tests call them
// the way a scheduled job or the dashboard will, and read the result back over the API.

let api: TestApi;
let site: FixtureSite;
let tenant: Tenant;
let other: Tenant;
beforeAll(async () => {
  site = await startSite({
    routes: { '/': { headers: { 'content-type': 'text/html' }, body: '<!doctype html><p>Winkel</p>' } },
  });
  api = await startApi();
  tenant = await seedTenant(api.db, site.url);
  other = await seedTenant(api.db, 'https://other.example/');
});
afterAll(async () => {
  await api.close();
  await site.close();
});

const deps = () => ({ db: api.db, config: api.config });

describe('services with an explicit actor', () => {
  it('runs a scan for the system actor, stored and listed like an agent scan', async () => {
    const recorded = await triggerScan(deps(), systemActor(tenant.tenantId, 'scheduler'), { site_id: tenant.siteId });
    expect(recorded.scan).toMatchObject({ tenant_id: tenant.tenantId, site_id: tenant.siteId });
    const listed = await api.call('GET', '/api/agent/scans', { key: tenant.key });
    expect(listed.body.scans.map((s: { id: string }) => s.id)).toContain(recorded.scan.id);
  });

  it("scopes every call to the actor's tenant: another tenant's scan and site are not found", async () => {
    const recorded = await triggerScan(deps(), systemActor(tenant.tenantId, 'scheduler'), { site_id: tenant.siteId });
    const stranger = systemActor(other.tenantId, 'scheduler');
    await expect(getScan(deps(), stranger, { scan_id: recorded.scan.id })).rejects.toBeInstanceOf(NotFound);
    await expect(triggerScan(deps(), stranger, { site_id: tenant.siteId })).rejects.toBeInstanceOf(NotFound);
    expect((await listScans(deps(), stranger, { limit: 20, offset: 0 })).scans).toEqual([]);
  });

  it('refuses an actor without the permission, whatever its kind', async () => {
    const reader: Actor = {
      tenantId: tenant.tenantId,
      actor: { kind: 'user', id: tenant.userId },
      permissions: ['read_scans'],
    };
    await expect(triggerScan(deps(), reader, { site_id: tenant.siteId })).rejects.toBeInstanceOf(Forbidden);
    await expect(searchFindings(deps(), reader, { limit: 5, offset: 0 })).rejects.toThrow(/read_findings/);
    expect((await listScans(deps(), reader, { limit: 1, offset: 0 })).pagination.total).toBeGreaterThan(0);
  });

  it('answers a rule the schema cannot express with Invalid', async () => {
    await expect(
      triggerScan(deps(), systemActor(tenant.tenantId, 'scheduler'), {
        site_id: tenant.siteId,
        url: 'https://elsewhere.example/',
      }),
    ).rejects.toBeInstanceOf(Invalid);
  });
});
