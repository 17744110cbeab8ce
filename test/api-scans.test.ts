import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as admin from '../services/admin.ts';
import { seedTenant, startApi, type Tenant, type TestApi } from './support/api.ts';
import type { FixtureSite } from './support/fixture-sites.ts';
import { leakyWordPressSite } from './support/sites.ts';

let api: TestApi;
let site: FixtureSite;
let owner: Tenant;
let stranger: Tenant;

beforeAll(async () => {
  api = await startApi();
  site = await leakyWordPressSite();
  owner = await seedTenant(api.db, site.url);
  stranger = await seedTenant(api.db, 'https://stranger.example/');
});
afterAll(async () => {
  await site.close();
  await api.close();
});

const scan = (tenant: Tenant, body: Record<string, unknown> = { site_id: tenant.siteId }) =>
  api.call('POST', '/api/agent/scan', { key: tenant.key, body });
const LIST_ITEM_KEYS = [
  'id',
  'site_id',
  'site_name',
  'site_url',
  'score',
  'grade',
  'ssl_score',
  'headers_score',
  'endpoints_score',
  'detected_platform',
  'findings_count',
  'critical_count',
  'high_count',
  'medium_count',
  'low_count',
  'scanned_at',
  'trigger',
].sort();
const FINDING_KEYS = [
  'id',
  'scan_id',
  'site_id',
  'site_name',
  'site_url',
  'finding_type',
  'category',
  'severity',
  'status',
  'title',
  'description',
  'impact',
  'remediation',
  'endpoint',
  'actual_value',
  'expected_value',
  'reference_url',
  'created_at',
].sort();
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('POST /api/agent/scan', () => {
  it('scans the site, stores the result and answers 201 with the create object', async () => {
    const { status, body } = await scan(owner);
    expect(status).toBe(201);
    expect(Object.keys(body).sort()).toEqual(
      ['counts', 'detail_url', 'findings_count', 'grade', 'scan_id', 'scanned_at', 'score', 'site_id', 'url'].sort(),
    );
    expect(body).toMatchObject({
      site_id: owner.siteId,
      url: site.url,
      detail_url: `/api/agent/scans/${body.scan_id}`,
    });
    expect(['zwak', 'kritiek']).toContain(body.grade);
    expect(body.scanned_at).toMatch(ISO_MS);
    const { critical, high, medium, low } = body.counts;
    expect(critical + high + medium + low).toBe(body.findings_count);
    expect(critical).toBeGreaterThan(0);
    const stored = await api.db
      .selectFrom('scan_findings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('scan_id', '=', body.scan_id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(body.findings_count);
  });

  it("answers 404 for another tenant's site, exactly like an unknown one", async () => {
    const foreign = await scan(stranger, { site_id: owner.siteId });
    const unknown = await scan(stranger, { site_id: '00000000-0000-4000-8000-000000000000' });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(unknown.body);
  });

  it.each([
    [{}, /site_id/],
    [{ site_id: 'abc' }, /site_id/],
    [{ site_id: null }, /site_id/],
  ])('answers 400 for a bad body %j', async (body, message) => {
    const response = await scan(owner, body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(message);
  });

  it('accepts a url override on the site host and rejects one on another host', async () => {
    const sameHost = await scan(owner, { site_id: owner.siteId, url: `${site.url}blog/` });
    expect(sameHost.status).toBe(201);
    expect(sameHost.body.url).toBe(`${site.url}blog/`);
    for (const url of ['https://elders.example/', 'ftp://127.0.0.1/', 'geen url']) {
      const response = await scan(owner, { site_id: owner.siteId, url });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: expect.stringMatching(/url/) });
    }
  });

  it('answers 400 when the scanner refuses a private target', async () => {
    const guarded = await startApi({ SCANNER_ALLOW_PRIVATE_TARGETS: 'false' });
    try {
      const tenant = await seedTenant(guarded.db, site.url);
      const before = site.requests.length;
      const response = await guarded.call('POST', '/api/agent/scan', {
        key: tenant.key,
        body: { site_id: tenant.siteId },
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatch(/geweigerd/);
      expect(site.requests.length).toBe(before);
    } finally {
      await guarded.close();
    }
  });

  it('answers 400 for a site that does not answer at all', async () => {
    const dead = await admin.createSite(
      { db: api.db, config: api.config },
      {
        tenant_id: owner.tenantId,
        name: 'Dood',
        url: 'http://127.0.0.1:9/',
      },
    );
    const response = await scan(owner, { site_id: dead.id });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/niet bereikbaar/);
  });
});

describe('GET /api/agent/scans and /api/agent/scans/{scan_id}', () => {
  it('lists scans newest first with the list item fields and pagination', async () => {
    const { status, body } = await api.call('GET', '/api/agent/scans?limit=1', { key: owner.key });
    expect(status).toBe(200);
    expect(Object.keys(body.scans[0]).sort()).toEqual(LIST_ITEM_KEYS);
    expect(body.scans[0]).toMatchObject({ site_id: owner.siteId, site_url: site.url, site_name: 'Testsite' });
    const all = (await api.call('GET', '/api/agent/scans', { key: owner.key })).body.scans;
    expect(all.map((s: { detected_platform: string | null }) => s.detected_platform)).toContain('wordpress');
    expect(body.pagination).toEqual({ total: 2, limit: 1, offset: 0, has_more: true });
    const second = await api.call('GET', '/api/agent/scans?limit=1&offset=1', { key: owner.key });
    expect(second.body.pagination).toEqual({ total: 2, limit: 1, offset: 1, has_more: false });
    expect(second.body.scans[0].scanned_at <= body.scans[0].scanned_at).toBe(true);
  });

  it('filters by site_id, grade, since and until', async () => {
    const all = (await api.call('GET', '/api/agent/scans', { key: owner.key })).body.scans;
    const grade = all[0].grade;
    const oldest = all.at(-1).scanned_at;
    const query = async (q: string) =>
      (await api.call('GET', `/api/agent/scans?${q}`, { key: owner.key })).body.pagination.total;
    expect(await query(`site_id=${owner.siteId}`)).toBe(2);
    expect(await query(`grade=${grade}`)).toBe(all.filter((s: { grade: string }) => s.grade === grade).length);
    expect(await query(`grade=${grade === 'kritiek' ? 'goed' : 'kritiek'}`)).toBe(
      all.filter((s: { grade: string }) => s.grade !== grade && s.grade === (grade === 'kritiek' ? 'goed' : 'kritiek'))
        .length,
    );
    expect(await query(`since=${oldest}`)).toBe(1);
    expect(await query(`until=${oldest}`)).toBe(0);
    expect(await query('since=2000-01-01')).toBe(2);
    expect(await query('until=2000-01-01T00:00:00Z')).toBe(0);
  });

  it.each([
    'limit=101',
    'limit=0',
    'offset=-1',
    'grade=super',
    'since=gisteren',
    'until=2026-13-45',
    'site_id=abc',
    'limit=abc',
    'limit=1.5',
  ])('answers 400 for %s (never clamps)', async (query) => {
    const response = await api.call('GET', `/api/agent/scans?${query}`, { key: owner.key });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: expect.any(String) });
  });

  it('shows one scan with url and the findings it observed', async () => {
    const created = (await scan(owner)).body;
    const { status, body } = await api.call('GET', `/api/agent/scans/${created.scan_id}`, { key: owner.key });
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(
      [
        ...LIST_ITEM_KEYS,
        'url',
        'detected_server',
        'score_breakdown',
        'failed_checks',
        'findings',
        'changes',
        'internetnl',
        'mail',
        'coverage',
        'unreachable',
        'passive',
        'crawl',
        'pages',
      ].sort(),
    );
    expect(body.passive).toBe(false);
    // A WordPress site judged by the shipped excerpt of Wordfence's data: findings, but no all-clear.
    expect(body.failed_checks).toEqual(['wordpress_components']);
    expect(body.findings).toHaveLength(created.findings_count);
    expect(Object.keys(body.findings[0]).sort()).toEqual(
      [...FINDING_KEYS, 'fixes', 'affected_urls', 'affected_count'].sort(),
    );
    // A one-page scan: the start page, and each per-page finding on it.
    expect(body.crawl).toMatchObject({ max_pages: 1, visited: 1, stopped_by: 'max_pages', limited_by: null });
    expect(body.pages).toEqual([
      expect.objectContaining({ url: expect.any(String), source: 'start', status: 200, robots: null }),
    ]);
    const headerFinding = body.findings.find((f: { category: string }) => f.category === 'SECURITY_HEADER');
    expect(headerFinding).toMatchObject({ affected_urls: [body.pages[0].url], affected_count: 1 });
    // The breakdown names every finding and adds up to the score.
    const { start, items, caps } = body.score_breakdown as {
      start: number;
      items: Array<{ finding_id: string; points: number }>;
      caps: Array<{ max: number }>;
    };
    expect(items.map((i) => i.finding_id).sort()).toEqual(body.findings.map((f: { id: string }) => f.id).sort());
    expect(
      Math.min(
        Math.max(0, Math.min(100, start + items.reduce((sum, i) => sum + i.points, 0))),
        ...caps.map((c) => c.max),
      ),
    ).toBe(body.score);
    // The finding detail gives the same finding with its fixes; the list keeps the spec's shape.
    const detail = await api.call('GET', `/api/agent/findings/${body.findings[0].id}`, { key: owner.key });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ id: body.findings[0].id, fixes: body.findings[0].fixes });
    expect((await api.call('GET', `/api/agent/findings/${body.findings[0].id}`, { key: stranger.key })).status).toBe(
      404,
    );
    const list = await api.call('GET', '/api/agent/findings', { key: owner.key });
    expect(Object.keys(list.body.findings[0]).sort()).toEqual(FINDING_KEYS);
    expect(body.findings.every((f: { scan_id: string }) => f.scan_id === created.scan_id)).toBe(true);
  });

  it('keeps tenants apart: another tenant sees no scans and gets 404 for a scan id', async () => {
    const list = await api.call('GET', '/api/agent/scans', { key: stranger.key });
    expect(list.body.scans).toEqual([]);
    const ownScan = (await api.call('GET', '/api/agent/scans', { key: owner.key })).body.scans[0].id;
    const foreign = await api.call('GET', `/api/agent/scans/${ownScan}`, { key: stranger.key });
    const unknown = await api.call('GET', '/api/agent/scans/00000000-0000-4000-8000-000000000000', {
      key: stranger.key,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(unknown.body);
    expect((await api.call('GET', '/api/agent/scans/abc', { key: owner.key })).status).toBe(400);
  });
});

describe('GET /api/agent/findings and the findings lifecycle', () => {
  const findingsOf = async (tenant: Tenant, query = '') =>
    (await api.call('GET', `/api/agent/findings?limit=200${query}`, { key: tenant.key })).body;
  const byType = async (type: string) =>
    (await findingsOf(owner)).findings.filter((f: { finding_type: string }) => f.finding_type === type);

  it('lists each issue of a site once, CRITICAL first, with summary over all pages', async () => {
    const body = await findingsOf(owner);
    const identities = body.findings.map(
      (f: { finding_type: string; endpoint: string }) => `${f.finding_type} ${f.endpoint}`,
    );
    expect(new Set(identities).size).toBe(identities.length);
    const ranks = body.findings.map((f: { severity: string }) =>
      ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'].indexOf(f.severity),
    );
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    const page = (await api.call('GET', '/api/agent/findings?limit=2', { key: owner.key })).body;
    expect(page.findings).toHaveLength(2);
    expect(page.summary).toEqual(body.summary);
    expect(page.pagination).toEqual({ total: body.findings.length, limit: 2, offset: 0, has_more: true });
    expect(body.summary.critical + body.summary.high + body.summary.medium + body.summary.low).toBe(
      body.pagination.total,
    );
  });

  it('filters by severity, category, status, site and case-insensitive search', async () => {
    const critical = await findingsOf(owner, '&severity=CRITICAL');
    expect(critical.findings.length).toBeGreaterThan(0);
    expect(critical.findings.every((f: { severity: string }) => f.severity === 'CRITICAL')).toBe(true);
    expect(critical.summary).toMatchObject({ high: 0, medium: 0, low: 0 });
    const exposed = await findingsOf(owner, '&category=EXPOSED_ENDPOINT&status=OPEN');
    expect(
      exposed.findings.every(
        (f: { category: string; status: string }) => f.category === 'EXPOSED_ENDPOINT' && f.status === 'OPEN',
      ),
    ).toBe(true);
    const search = await findingsOf(owner, '&search=GIT-REPOSITORY');
    expect(search.findings.length).toBeGreaterThan(0);
    expect(
      search.findings.every((f: { title: string; description: string }) =>
        `${f.title} ${f.description}`.toLowerCase().includes('git-repository'),
      ),
    ).toBe(true);
    expect((await findingsOf(owner, '&search=100%25_')).findings).toEqual([]);
    expect((await findingsOf(owner, `&site_id=${stranger.siteId}`)).findings).toEqual([]);
    for (const bad of ['severity=critical', 'category=SSL', 'status=DONE', 'limit=201', 'site_id=1']) {
      expect((await api.call('GET', `/api/agent/findings?${bad}`, { key: owner.key })).status).toBe(400);
    }
  });

  it('resolves an issue a later scan no longer sees, reopens it when it comes back, and keeps ACCEPTED_RISK', async () => {
    const [env] = await byType('exposed_env_file');
    const [git] = await byType('exposed_git_config');
    expect(env.status).toBe('OPEN');
    await admin.setStatusOfFinding(
      { db: api.db, config: api.config },
      {
        finding_id: git.id,
        status: 'ACCEPTED_RISK',
        reason: 'Testomgeving',
        owner_id: owner.userId,
        expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      },
    );

    const envRoute = site.routesRef['/.env'];
    const gitRoute = site.routesRef['/.git/config'];
    delete site.routesRef['/.env'];
    delete site.routesRef['/.git/config'];
    const fixedScan = (await scan(owner)).body;
    const [resolved] = await byType('exposed_env_file');
    expect(resolved).toMatchObject({ id: env.id, status: 'RESOLVED', scan_id: env.scan_id });
    expect((await byType('exposed_git_config'))[0]).toMatchObject({ id: git.id, status: 'ACCEPTED_RISK' });
    expect((await findingsOf(owner, '&status=RESOLVED')).findings.map((f: { id: string }) => f.id)).toContain(env.id);

    site.routesRef['/.env'] = envRoute!;
    site.routesRef['/.git/config'] = gitRoute!;
    const leakedAgain = (await scan(owner)).body;
    expect(leakedAgain.scan_id).not.toBe(fixedScan.scan_id);
    expect((await byType('exposed_env_file'))[0]).toMatchObject({
      id: env.id,
      status: 'OPEN',
      scan_id: leakedAgain.scan_id,
    });
    expect((await byType('exposed_git_config'))[0]).toMatchObject({
      status: 'ACCEPTED_RISK',
      scan_id: leakedAgain.scan_id,
    });
  });

  it('keeps tenants apart: another tenant sees none of these findings', async () => {
    const body = await findingsOf(stranger);
    expect(body.findings).toEqual([]);
    expect(body.summary).toEqual({ critical: 0, high: 0, medium: 0, low: 0 });
  });
});
