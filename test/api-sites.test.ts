import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as admin from '../services/admin.ts';
import { seedTenant, startApi, type Tenant, type TestApi } from './support/api.ts';
import type { FixtureSite } from './support/fixture-sites.ts';
import { leakyWordPressSite } from './support/sites.ts';

let api: TestApi;
let owner: Tenant;
let stranger: Tenant;
let fixture: FixtureSite;
beforeAll(async () => {
  api = await startApi();
  fixture = await leakyWordPressSite();
  owner = await seedTenant(api.db, fixture.url);
  stranger = await seedTenant(api.db, 'https://stranger.example/');
});
afterAll(async () => {
  await fixture.close();
  await api.close();
});

const SITE_KEYS = [
  'created_at',
  'detected_platform',
  'exclude_paths',
  'id',
  'include_paths',
  'latest_scan',
  'mail_domain',
  'max_pages',
  'name',
  'next_scan_at',
  'scan_interval_hours',
  'url',
  'verification',
];

describe('GET /api/agent/sites', () => {
  it("lists the tenant's sites with their latest scan, which an agent then scans by id", async () => {
    const before = await api.call('GET', '/api/agent/sites', { key: owner.key });
    expect(before.status).toBe(200);
    expect(before.body.pagination).toEqual({ total: 1, limit: 20, offset: 0, has_more: false });
    expect(Object.keys(before.body.sites[0]).sort()).toEqual(SITE_KEYS);
    expect(before.body.sites[0]).toMatchObject({
      id: owner.siteId,
      url: fixture.url,
      latest_scan: null,
      detected_platform: null,
      // seedTenant's operator vouched for the fixture: its scans run every test.
      verification: { status: 'verified', method: 'operator', covers: '127.0.0.1', lost_at: null },
    });

    const scan = await api.call('POST', '/api/agent/scan', {
      key: owner.key,
      body: { site_id: before.body.sites[0].id },
    });
    expect(scan.status).toBe(201);
    const after = await api.call('GET', '/api/agent/sites', { key: owner.key });
    expect(after.body.sites[0]).toMatchObject({
      detected_platform: 'wordpress',
      latest_scan: {
        id: scan.body.scan_id,
        score: scan.body.score,
        grade: scan.body.grade,
        scanned_at: scan.body.scanned_at,
      },
    });
  });

  it('pages and filters by platform', async () => {
    await admin.createSite(
      { db: api.db, config: api.config },
      {
        tenant_id: owner.tenantId,
        name: 'Tweede',
        url: 'https://tweede.example/',
      },
    );
    const page = await api.call('GET', '/api/agent/sites?limit=1&offset=1', { key: owner.key });
    expect(page.body.pagination).toEqual({ total: 2, limit: 1, offset: 1, has_more: false });
    expect(page.body.sites.map((s: { name: string }) => s.name)).toEqual(['Tweede']);
    const wordpress = await api.call('GET', '/api/agent/sites?platform=wordpress', { key: owner.key });
    expect(wordpress.body.sites.map((s: { id: string }) => s.id)).toEqual([owner.siteId]);
    expect((await api.call('GET', '/api/agent/sites?platform=joomla', { key: owner.key })).status).toBe(400);
    expect((await api.call('GET', '/api/agent/sites?limit=101', { key: owner.key })).status).toBe(400);
  });

  it("shows one site, and answers 404 for another tenant's site exactly as for a missing one", async () => {
    const own = await api.call('GET', `/api/agent/sites/${owner.siteId}`, { key: owner.key });
    expect(own.status).toBe(200);
    expect(Object.keys(own.body).sort()).toEqual(SITE_KEYS);
    const foreign = await api.call('GET', `/api/agent/sites/${stranger.siteId}`, { key: owner.key });
    const missing = await api.call('GET', '/api/agent/sites/00000000-0000-4000-8000-000000000000', { key: owner.key });
    expect(foreign).toMatchObject({ status: 404, body: missing.body });
    expect(
      (await api.call('GET', '/api/agent/sites', { key: stranger.key })).body.sites.map((s: { id: string }) => s.id),
    ).toEqual([stranger.siteId]);
  });

  it('is typed over /trpc as well', async () => {
    const response = await api.call(
      'GET',
      `/trpc/sites.get?input=${encodeURIComponent(JSON.stringify({ site_id: owner.siteId }))}`,
      { key: owner.key },
    );
    expect(response.body.result.data).toMatchObject({ id: owner.siteId, name: 'Testsite' });
  });
});

describe('admin lists', () => {
  it("lists tenants, a tenant's users and its sites with their latest scan", async () => {
    expect((await admin.tenants({ db: api.db, config: api.config }, {})).map((t) => t.id)).toEqual(
      expect.arrayContaining([owner.tenantId, stranger.tenantId]),
    );
    expect(
      (await admin.usersOfTenant({ db: api.db, config: api.config }, { tenant_id: owner.tenantId })).map((u) => u.id),
    ).toEqual([owner.userId]);
    const sites = await admin.sitesOfTenant(
      { db: api.db, config: api.config },
      {
        tenant_id: owner.tenantId,
      },
    );
    expect(sites[0]).toMatchObject({
      id: owner.siteId,
      latest_scan: expect.objectContaining({ grade: expect.any(String) }),
    });
    await expect(
      admin.sitesOfTenant(
        { db: api.db, config: api.config },
        {
          tenant_id: '00000000-0000-4000-8000-000000000000',
        },
      ),
    ).rejects.toThrow(/not found/);
  });
});
