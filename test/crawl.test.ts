import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../bin/admin-cli.ts';
import { scanSite, type ScanOptions } from '../scanner/index.ts';
import { GOOD_HEADERS, page, PRODUCTS, startShop, type Shop } from './support/crawl-shop.ts';
import type { Reply } from './support/fixture-sites.ts';
import { seedTenant, startApi, type Tenant, type TestApi } from './support/api.ts';

let api: TestApi;
let shop: Shop;
let tenant: Tenant;

beforeAll(async () => {
  api = await startApi();
  shop = await startShop();
  tenant = await seedTenant(api.db, shop.site.url);
});
afterAll(async () => {
  await shop.site.close();
  await api.close();
});

interface Finding {
  id: string;
  finding_type: string;
  endpoint: string;
  status: string;
  actual_value: string | null;
  affected_urls: string[] | null;
  affected_count: number | null;
}
interface Detail {
  id: string;
  findings: Finding[];
  crawl: {
    max_pages: number;
    visited: number;
    stopped_by: string | null;
    skipped: Record<string, number>;
    limited_by: string | null;
  };
  pages: Array<{
    url: string;
    source: string;
    status: number | null;
    content_type: string | null;
    robots: string | null;
  }>;
  coverage: Array<{ test: string; subject: string; status: string }>;
}

const get = (who: Tenant, path: string) => api.call('GET', path, { key: who.key });
async function scan(who: Tenant, body: Record<string, unknown> = {}): Promise<Detail> {
  const created = await api.call('POST', '/api/agent/scan', { key: who.key, body: { site_id: who.siteId, ...body } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(Object.keys(created.body).sort()).toEqual(
    ['scan_id', 'site_id', 'url', 'score', 'grade', 'counts', 'findings_count', 'scanned_at', 'detail_url'].sort(),
  );
  return (await get(who, `/api/agent/scans/${created.body.scan_id}`)).body;
}
const at = (path: string) => new URL(path, shop.site.url).href;
const ofType = (detail: Detail, type: string) => detail.findings.filter((f) => f.finding_type === type);
const paths = (detail: Detail) => detail.pages.map((p) => new URL(p.url).pathname);

describe('a crawl of a verified site', () => {
  let first: Detail;
  let requestsBefore: number;

  beforeAll(async () => {
    requestsBefore = shop.site.targets.length;
    first = await scan(tenant, { max_pages: 10 });
  });

  it('reports each of the five problems once, with the pages where it occurs', () => {
    const once = (type: string, pages: string[]) => {
      const found = ofType(first, type);
      expect(found, type).toHaveLength(1);
      expect(found[0]!.affected_urls, type).toEqual(pages.map(at));
      expect(found[0]!.affected_count, type).toBe(pages.length);
      expect(found[0]!.endpoint, type).toBe(at(pages[0]!));
      return found[0]!;
    };
    const cookie = once('session_cookie_missing_secure', ['/login']);
    expect(cookie.actual_value).toBe("op 1 van 10 pagina's: /login; sessionid");
    once('session_cookie_missing_httponly', ['/login']);
    once('mixed_content_active', ['/contact']);
    once('mixed_content_passive', ['/blog/2019/oude-actie']);
    once('mixed_content_script', ['/blog/2019/oude-actie']);
    const framing = once(
      'x_frame_options_missing',
      ['/account', '/afrekenen'].sort((a, b) => paths(first).indexOf(a) - paths(first).indexOf(b)),
    );
    expect(framing.actual_value).toMatch(/^op 2 van 10 pagina's: \//);
    const stripe = ofType(first, 'client_secret_stripe');
    expect(stripe).toHaveLength(1);
    expect(stripe[0]!.endpoint).toBe(at('/js/betalen.js'));
    expect(stripe[0]!.affected_urls).toEqual([at('/afrekenen')]);
    // The secret is never shown whole.
    expect(JSON.stringify(first)).not.toContain(shop.stripeKey);
  });

  it('lists the pages it visited, the start page first, and counts what it left', () => {
    expect(first.crawl).toMatchObject({ max_pages: 10, visited: 10, stopped_by: 'max_pages', limited_by: null });
    expect(first.pages).toHaveLength(10);
    expect(first.pages[0]).toMatchObject({ url: at('/'), source: 'start', status: 200, robots: 'allowed' });
    for (const p of ['/login', '/contact', '/account', '/afrekenen', '/blog/2019/oude-actie', '/alleen-in-sitemap'])
      expect(paths(first)).toContain(p);
    expect(first.pages.find((p) => p.url === at('/alleen-in-sitemap'))?.source).toBe('sitemap');
    expect(first.pages.find((p) => p.url === at('/login'))?.source).toBe('link');
    expect(first.crawl.skipped.robots).toBeGreaterThanOrEqual(1);
    expect(first.crawl.skipped.excluded).toBeGreaterThanOrEqual(3);
    expect(first.crawl.skipped.off_origin).toBeGreaterThanOrEqual(1);
    expect(first.crawl.skipped.not_html).toBeGreaterThanOrEqual(1);
    // Each page is a subject of the per-page tests.
    expect(first.coverage).toContainEqual(
      expect.objectContaining({ test: 'security_headers', subject: at('/login'), status: 'completed' }),
    );
  });

  it('sent only GET and HEAD: no form, no query string, no logout, nothing robots.txt disallows', () => {
    const sent = shop.site.targets.slice(requestsBefore);
    for (const line of sent) expect(line).toMatch(/^(GET|HEAD) /);
    // The only query strings are the exposure test's own GraphQL probes, never a page's.
    expect(sent.filter((l) => l.includes('?') && !/graphql/.test(l))).toEqual([]);
    for (const never of ['/uitloggen', '/nieuwsbrief/afmelden', '/beheer/', '/contact-verzenden', '/folder.pdf'])
      expect(
        sent.some((l) => l.split(' ')[1] === never),
        never,
      ).toBe(false);
    expect(sent).toContain('GET /robots.txt');
    expect(sent).toContain('GET /page-sitemap.xml.gz');
  });

  it('visits the same pages on a rescan, and resolves a problem only when every page is fixed', async () => {
    const again = await scan(tenant, { max_pages: 10 });
    // The pages of open findings are read first, so the order differs; the pages do not.
    expect(paths(again)[0]).toBe('/');
    expect([...paths(again)].sort()).toEqual([...paths(first)].sort());
    const framing = ofType(again, 'x_frame_options_missing')[0]!;
    expect(framing.id).toBe(ofType(first, 'x_frame_options_missing')[0]!.id);

    // Fixed on one of its two pages: still open, on the other page alone.
    const account = shop.routes['/account'];
    shop.routes['/account'] = page('Mijn account', '<p>Bestellingen</p>', GOOD_HEADERS);
    const half = await scan(tenant, { max_pages: 10 });
    const still = ofType(half, 'x_frame_options_missing');
    expect(still).toHaveLength(1);
    expect(still[0]!.id).toBe(framing.id);
    expect(still[0]!.affected_urls).toEqual([at('/afrekenen')]);
    expect(still[0]!.endpoint).toBe(at('/afrekenen'));

    // Fixed on both: exactly that finding is resolved.
    const checkout = shop.routes['/afrekenen'];
    shop.routes['/afrekenen'] = page('Afrekenen', '<script src="/js/betalen.js"></script>', GOOD_HEADERS);
    const fixed = await scan(tenant, { max_pages: 10 });
    expect(ofType(fixed, 'x_frame_options_missing')).toHaveLength(0);
    const stored = await api.db.selectFrom('findings').select('status').where('id', '=', framing.id).executeTakeFirst();
    expect(stored?.status).toBe('RESOLVED');
    const changes = (await get(tenant, `/api/agent/scans/${fixed.id}/changes`)).body;
    const resolvedTypes = await api.db
      .selectFrom('findings')
      .select('finding_type')
      .where('id', 'in', changes.resolved as string[])
      .execute();
    expect(resolvedTypes.map((r) => r.finding_type).sort()).toEqual(
      ['csp_frame_ancestors_missing', 'x_frame_options_missing'].sort(),
    );
    for (const type of ['session_cookie_missing_secure', 'mixed_content_active', 'client_secret_stripe'])
      expect(ofType(fixed, type), type).toHaveLength(1);
    shop.routes['/account'] = account!;
    shop.routes['/afrekenen'] = checkout!;
  });

  it('keeps a page-level finding open when a smaller scan did not look at its pages again', async () => {
    const seen = await scan(tenant, { max_pages: 10 });
    const cookie = ofType(seen, 'session_cookie_missing_secure')[0]!;
    const onePage = await scan(tenant, { max_pages: 1 });
    expect(onePage.pages).toHaveLength(1);
    expect(ofType(onePage, 'session_cookie_missing_secure')).toHaveLength(0);
    const stored = await api.db.selectFrom('findings').select('status').where('id', '=', cookie.id).executeTakeFirst();
    expect(stored?.status).toBe('OPEN');
  });

  it('reads at most two pages of one template, and a page only linked from another page', async () => {
    const detail = await scan(tenant, { max_pages: 25 });
    expect(paths(detail).filter((p) => p.startsWith('/producten/'))).toHaveLength(2);
    expect(detail.crawl.skipped.template_duplicate, JSON.stringify(paths(detail))).toBe(PRODUCTS - 2);
    expect(paths(detail)).toContain('/alleen-gelinkt');
    expect(detail.pages.find((p) => p.url === at('/alleen-gelinkt'))?.source).toBe('link');
    expect(detail.crawl.stopped_by).toBeNull();
  });

  it('goes back to the pages of open findings first', async () => {
    const detail = await scan(tenant, { max_pages: 4 });
    const previous = detail.pages.filter((p) => p.source === 'previous').map((p) => new URL(p.url).pathname);
    expect(previous.length).toBe(3);
    expect(
      previous.every((p) => ['/login', '/contact', '/blog/2019/oude-actie', '/account', '/afrekenen'].includes(p)),
    ).toBe(true);
  });

  it('fetches the pages it is given, even where robots.txt disallows them, and marks them', async () => {
    const detail = await scan(tenant, { max_pages: 3, pages: [at('/beheer/')] });
    expect(detail.pages[1]).toMatchObject({ url: at('/beheer/'), source: 'given', robots: 'disallowed', status: 200 });
    const outside = await api.call('POST', '/api/agent/scan', {
      key: tenant.key,
      body: { site_id: tenant.siteId, pages: ['https://elders.example/pagina'] },
    });
    expect(outside.status).toBe(400);
    expect(outside.body.error).toMatch(/origin van de site/);
    const tooMany = await api.call('POST', '/api/agent/scan', {
      key: tenant.key,
      body: { site_id: tenant.siteId, max_pages: 26 },
    });
    expect(tooMany.status).toBe(400);
  });
});

describe('an unverified site', () => {
  it('is examined at its start page alone, says so, and refuses named pages', async () => {
    const stranger = await seedTenant(api.db, shop.site.url, { verified: false });
    const before = shop.site.targets.length;
    const detail = await scan(stranger, { max_pages: 10 });
    expect(detail.crawl).toMatchObject({ max_pages: 1, visited: 1, limited_by: 'unverified' });
    expect(paths(detail)).toEqual(['/']);
    const sent = shop.site.targets.slice(before).map((l) => l.split(' ')[1]);
    for (const never of ['/login', '/robots.txt', '/sitemap_index.xml', '/account']) expect(sent).not.toContain(never);
    const refused = await api.call('POST', '/api/agent/scan', {
      key: stranger.key,
      body: { site_id: stranger.siteId, pages: [at('/login')] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/eigendom/);
  });
});

describe('site settings', () => {
  it('sets max_pages and path rules through PATCH, within the plan', async () => {
    const patched = await api.call('PATCH', `/api/agent/sites/${tenant.siteId}`, {
      key: tenant.key,
      body: { max_pages: 5, exclude_paths: ['/blog/'] },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ max_pages: 5, include_paths: [], exclude_paths: ['/blog/'] });
    const detail = await scan(tenant);
    expect(detail.crawl.max_pages).toBe(5);
    expect(paths(detail).some((p) => p.startsWith('/blog/'))).toBe(false);
    const bad = await api.call('PATCH', `/api/agent/sites/${tenant.siteId}`, {
      key: tenant.key,
      body: { exclude_paths: ['geen pad'] },
    });
    expect(bad.status).toBe(400);
    await api.call('PATCH', `/api/agent/sites/${tenant.siteId}`, {
      key: tenant.key,
      body: { max_pages: 1, exclude_paths: [] },
    });
  });

  it('sets the same through the admin command line', async () => {
    const out = { stdout: '', stderr: '' };
    const io = {
      stdout: { write: (t: string) => (out.stdout += t) },
      stderr: { write: (t: string) => (out.stderr += t) },
      env: { ...process.env, ...api.dbEnv },
    };
    const args = [
      'site',
      'crawl',
      '--site',
      tenant.siteId,
      '--max-pages',
      '4',
      '--include',
      '/winkel/,/blog/',
      '--json',
    ];
    expect(await runAdmin(args, io), out.stderr).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ max_pages: 4, include_paths: ['/winkel/', '/blog/'] });
    expect(await runAdmin(['site', 'crawl', '--site', tenant.siteId, '--max-pages', '30', '--json'], io)).toBe(1);
    expect(
      await runAdmin(['site', 'crawl', '--site', tenant.siteId, '--max-pages', '1', '--include', '', '--json'], io),
    ).toBe(0);
    const site = await api.db
      .selectFrom('sites')
      .select(['max_pages', 'include_paths'])
      .where('id', '=', tenant.siteId)
      .executeTakeFirstOrThrow();
    expect(site).toEqual({ max_pages: 1, include_paths: '[]' });
  });

  it('caps max_pages at the plan', async () => {
    const free = await seedTenant(api.db, shop.site.url, { plan: 'free' });
    const refused = await api.call('PATCH', `/api/agent/sites/${free.siteId}`, {
      key: free.key,
      body: { max_pages: 25 },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/free-abonnement/);
    const detail = await scan(free, { max_pages: 25 });
    expect(detail.crawl).toMatchObject({ max_pages: 10, limited_by: 'plan' });
  });
});

describe('the crawl within its bounds', () => {
  const crawl = (extra: Partial<NonNullable<ScanOptions['crawl']>>) => ({
    maxPages: 25,
    given: [],
    previous: [],
    includePaths: [],
    excludePaths: [],
    ...extra,
  });
  const scanShop = (site: { url: string }, options: ScanOptions) =>
    scanSite(site.url, { allowPrivateTargets: true, probeExposures: false, ...options });

  it('disallows the crawl when robots.txt answers 5xx, but still reads the pages it is given', async () => {
    const down = await startShop({
      robots: { status: 503, headers: { 'content-type': 'text/html' }, body: '<h1>503</h1>' },
    });
    try {
      const result = await scanShop(down.site, {
        crawl: crawl({ given: [new URL('/login', down.site.url).href] }),
      });
      expect(result.pages.map((p) => [new URL(p.url).pathname, p.source, p.robots])).toEqual([
        ['/', 'start', 'disallowed'],
        ['/login', 'given', 'disallowed'],
      ]);
      expect(result.crawl.skipped.robots).toBeGreaterThan(0);
      expect(down.site.requests).not.toContain('GET /sitemap_index.xml');
      expect(result.findings.map((f) => f.finding_type)).toContain('session_cookie_missing_secure');
    } finally {
      await down.site.close();
    }
  });

  it('allows everything when robots.txt is missing, and reads /sitemap.xml then', async () => {
    const open = await startShop({
      robots: { status: 404, headers: { 'content-type': 'text/html' }, body: '<h1>404</h1>' },
    });
    try {
      const result = await scanShop(open.site, { crawl: crawl({ maxPages: 6 }) });
      expect(result.pages).toHaveLength(6);
      expect(result.pages[0]!.robots).toBe('allowed');
      expect(open.site.requests).toContain('GET /sitemap.xml');
      expect(open.site.requests).toContain('GET /wp-sitemap.xml');
    } finally {
      await open.site.close();
    }
  });

  it('stops at its own time limit, on the clock it is given', async () => {
    let now = 0;
    const slowClock = await startShop();
    try {
      // Each page read moves the clock ten seconds: the 30-second limit ends the crawl after three.
      for (const [path, route] of Object.entries(slowClock.routes))
        if (typeof route !== 'function' && route.headers?.['content-type']?.toString().startsWith('text/html'))
          slowClock.routes[path] = () => {
            now += 10_000;
            return route;
          };
      const result = await scanShop(slowClock.site, { crawl: crawl({ now: () => now, timeMs: 30_000 }) });
      expect(result.crawl.stopped_by).toBe('time');
      expect(result.crawl.visited).toBeLessThan(6);
    } finally {
      await slowClock.site.close();
    }
  });

  it("keeps to the scan's deadline: pages read but not judged are failed, never clean", async () => {
    const slow = await startShop();
    try {
      for (const path of ['/login', '/contact', '/account', '/afrekenen', '/winkel/', '/blog/'])
        slow.routes[path] = { ...(slow.routes[path] as Reply), delayMs: 4_000 };
      const result = await scanShop(slow.site, { deadlineMs: 2_500, crawl: crawl({}) });
      expect(result.crawl.stopped_by).toBe('deadline');
      const judged = result.coverage.filter(
        (c) => c.test === 'security_headers' && c.subject !== new URL(slow.site.url).origin,
      );
      for (const entry of judged) expect(entry.status === 'completed' || entry.status === 'failed').toBe(true);
      expect(result.examined.every((url) => !['/login', '/contact'].includes(new URL(url).pathname))).toBe(true);
    } finally {
      await slow.site.close();
    }
  });

  it('gives a one-page scan exactly the findings it always had', async () => {
    const before = shop.site.requests.length;
    const result = await scanShop(shop.site, {});
    // A one-page scan reads no robots.txt, no sitemap and no other page.
    expect(shop.site.requests.slice(before).filter((r) => /robots|sitemap|login|account/.test(r))).toEqual([]);
    const bounded = await scanShop(shop.site, { crawl: crawl({ maxPages: 1 }) });
    const strip = (r: typeof result) => r.findings.map(({ affected_urls: _u, affected_count: _c, ...f }) => f);
    expect(strip(bounded)).toEqual(strip(result));
    expect(result.pages).toHaveLength(1);
    expect(result.crawl).toMatchObject({ max_pages: 1, visited: 1 });
    for (const f of result.findings) expect(f.actual_value ?? '').not.toMatch(/^op \d+ van/);
  });
});
