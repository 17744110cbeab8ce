import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../bin/admin-cli.ts';
import { auditOfTenant } from '../db/claims.ts';
import { movableClock } from '../infra/clock.ts';
import { metaContents, PROOF_PLACES } from '../scanner/probes/control-proof.ts';
import { proofForScan, verificationOf, verifySite } from '../services/verification.ts';
import { sweepMonitoring } from '../services/monitoring-sweeper.ts';
import { systemActor } from '../domain/actor.ts';
import { findSite } from '../db/sites.ts';
import { claimsOfTenant } from '../db/claims.ts';
import { postgrestBackend, type FixtureBackend } from './support/backend-fixtures.ts';
import { freshSecrets, nextSite, supabaseJwt } from './support/client-code-sites.ts';
import { startDnsServer, type DnsServer, type Zone } from './support/dns-server.ts';
import { startSite, type FixtureSite, type Reply } from './support/fixture-sites.ts';
import { seedTenant, startApi, type Tenant, type TestApi } from './support/api.ts';

const text = (body: string, type = 'text/plain'): Reply => ({ headers: { 'content-type': type }, body });
const html = (body: string): Reply => text(body, 'text/html; charset=utf-8');
/** Paths only intrusive tests ask for: exposure files, the not-found probes' random names. */
const INTRUSIVE_PATHS = /^\/(\.env|\.git|wp-config|backup|id_rsa|graphql|api\/graphql|actuator|phpinfo)|[a-z0-9]{20,}/;
const INTRUSIVE_TESTS = ['exposures', 'client_backends', 'nextjs_middleware', 'wordpress_components'];

let api: TestApi;
let dns: DnsServer;
const zone: Zone = {
  'shop.test': { a: ['127.0.0.1'] },
  'www.shop.test': { a: ['127.0.0.1'] },
};
const closers: Array<{ close: () => Promise<void> }> = [];
const keep = async <T extends { close: () => Promise<void> }>(started: Promise<T>) => {
  const value = await started;
  closers.push(value);
  return value;
};

beforeAll(async () => {
  dns = await startDnsServer(zone);
  api = await startApi({ SCANNER_DNS_SERVERS: dns.address });
});
afterAll(async () => {
  await Promise.all(closers.map((c) => c.close()));
  await api.close();
  await dns.close();
});

const get = (tenant: Tenant, path: string) => api.call('GET', path, { key: tenant.key });
const post = (tenant: Tenant, path: string, body: unknown) => api.call('POST', path, { key: tenant.key, body });
const verification = (tenant: Tenant) => get(tenant, `/api/agent/sites/${tenant.siteId}/verification`);
const verify = (tenant: Tenant, method?: string) =>
  post(tenant, `/api/agent/sites/${tenant.siteId}/verify`, method ? { method } : {});
async function scan(tenant: Tenant) {
  const created = await post(tenant, '/api/agent/scan', { site_id: tenant.siteId });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return (await get(tenant, `/api/agent/scans/${created.body.scan_id}`)).body;
}
const coverageOf = (
  detail: { coverage: Array<{ test: string; status: string; reason: string | null }> },
  test: string,
) => detail.coverage.filter((c) => c.test === test);

/** A shop with exposed files and a session cookie, whose every request is logged. */
function exposedShop(extra: Record<string, Reply> = {}): Promise<FixtureSite> {
  return startSite({
    routes: {
      '/': html('<!doctype html><html><head><title>Winkel</title></head><body><h1>Winkel</h1></body></html>'),
      '/.env': text('APP_ENV=production\nDB_HOST=localhost\nDB_PASSWORD=hunter2\n'),
      '/.git/config': text('[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n'),
      '/.git/HEAD': text('ref: refs/heads/main\n'),
      ...extra,
    },
  });
}

async function webhookTypes(tenant: Tenant) {
  const rows = await api.db
    .selectFrom('webhook_messages')
    .select(['event_type', 'payload'])
    .where('tenant_id', '=', tenant.tenantId)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => ({ type: r.event_type, data: JSON.parse(r.payload).data }));
}

describe('a scan without proof of control', () => {
  let site: FixtureSite;
  let backend: FixtureBackend;
  const middlewareHeaders: string[] = [];
  let detail: Awaited<ReturnType<typeof scan>>;
  const secrets = freshSecrets();

  beforeAll(async () => {
    const anon = supabaseJwt('anon');
    backend = await keep(postgrestBackend(anon, { profiles: { access: 'open', rows: [{ id: 1, email: 'a@b.nl' }] } }));
    site = await keep(nextSite(true));
    // The app's own chunk: a Supabase client with its public key, and an OpenAI key any visitor downloads.
    site.routesRef['/_next/static/chunks/main-app-4f2a.js'] = text(
      `const s=supabase.createClient("${backend.url}","${anon}");s.from("profiles").select("id,email");const o=new OpenAI({apiKey:"${secrets.openai}"});`,
      'application/javascript',
    );
    site.routesRef['/.env'] = text('APP_ENV=production\nDB_PASSWORD=hunter2\n');
    site.routesRef['/.git/config'] = text('[core]\n\trepositoryformatversion = 0\n');
    const guarded = site.routesRef['/dashboard'] as (req: {
      headers: Record<string, string | string[] | undefined>;
    }) => Reply;
    site.routesRef['/dashboard'] = (req) => {
      const header = req.headers['x-middleware-subrequest'];
      if (header !== undefined) middlewareHeaders.push(String(header));
      return guarded(req);
    };
    const tenant = await seedTenant(api.db, site.url, { verified: false });
    detail = await scan(tenant);
  });

  it('sends the site nothing a browser would not ask for, and its backends nothing at all', () => {
    expect(site.requests.filter((r) => INTRUSIVE_PATHS.test(r.split(' ')[1]!))).toEqual([]);
    for (const request of site.requests) expect(request).toMatch(/^(GET|HEAD) \/(_next\/static\/.*)?$/);
    expect(middlewareHeaders).toEqual([]);
    expect(backend.requests).toEqual([]);
  });

  it('says so: passive, every intrusive test skipped with the reason, and the script secret still found', () => {
    expect(detail.passive).toBe(true);
    for (const test of INTRUSIVE_TESTS)
      expect(
        coverageOf(detail, test).map((c) => [c.status, c.reason]),
        test,
      ).toEqual([['skipped', 'eigendom niet aangetoond']]);
    expect(coverageOf(detail, 'client_code')[0]!.status).toBe('completed');
    const openai = detail.findings.filter((f: { finding_type: string }) => f.finding_type === 'client_secret_openai');
    expect(openai).toHaveLength(1);
    expect(JSON.stringify(detail)).not.toContain(secrets.openai);
    expect(detail.findings.map((f: { finding_type: string }) => f.finding_type)).not.toContain('exposed_env_file');
  });
});

describe('proof by file', () => {
  it('verifies by the published file; the next scan finds the exposed files; removing it loses the claim and resolves nothing', async () => {
    const site = await keep(exposedShop());
    const tenant = await seedTenant(api.db, site.url, { verified: false });
    const hook = await post(tenant, '/api/agent/webhooks', {
      url: 'https://hooks.example.nl/scanner',
      events: ['site_verified', 'site_verification_lost', 'finding_resolved'],
    });
    expect(hook.status).toBe(201);

    const shown = await verification(tenant);
    expect(shown.status).toBe(200);
    expect(Object.keys(shown.body).sort()).toEqual(['checks', 'dns', 'file', 'meta', 'token']);
    const { token, file, meta, dns: record } = shown.body;
    expect(token).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(file).toEqual({ url: `${site.url}${PROOF_PLACES.filePath.slice(1)}`, body: `${token}\n` });
    expect(meta.tag).toBe(`<meta name="${PROOF_PLACES.metaName}" content="${token}">`);
    expect(record).toEqual({ name: `${PROOF_PLACES.dnsLabel}.127.0.0.1`, value: `${PROOF_PLACES.txtPrefix}${token}` });
    expect(shown.body.checks).toEqual({ dns: null, file: null, meta: null });

    const before = await scan(tenant);
    expect(before.passive).toBe(true);

    site.routesRef[PROOF_PLACES.filePath] = text(`# eigenaar\n${file.body}`);
    const verified = await verify(tenant, 'file');
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ status: 'verified', method: 'file', covers: '127.0.0.1', lost_at: null });
    expect((await get(tenant, `/api/agent/sites/${tenant.siteId}`)).body.verification.status).toBe('verified');
    expect((await verification(tenant)).body.checks.file).toMatchObject({ outcome: 'present' });

    const full = await scan(tenant);
    expect(full.passive).toBe(false);
    expect(coverageOf(full, 'exposures')[0]!.status).toBe('completed');
    const exposed = full.findings.map((f: { finding_type: string }) => f.finding_type);
    expect(exposed).toEqual(expect.arrayContaining(['exposed_env_file', 'exposed_git_config']));

    delete site.routesRef[PROOF_PLACES.filePath];
    const lost = await verify(tenant, 'file');
    expect(lost.body).toMatchObject({ status: 'lost', method: 'file', lost_at: expect.any(String) });
    expect(lost.body.reason).toContain('HTTP 404');

    const requestsBefore = site.requests.length;
    const after = await scan(tenant);
    expect(after.passive).toBe(true);
    expect(coverageOf(after, 'exposures')[0]).toMatchObject({
      status: 'skipped',
      reason: expect.stringMatching(/^verificatie verloren op \d{4}-\d{2}-\d{2}: .*HTTP 404/),
    });
    expect(after.changes.resolved).toEqual([]);
    expect(site.requests.slice(requestsBefore).filter((r) => INTRUSIVE_PATHS.test(r.split(' ')[1]!))).toEqual([]);
    const open = await get(tenant, '/api/agent/findings?search=.env');
    expect(open.body.findings.map((f: { status: string }) => f.status)).toEqual(['OPEN']);

    const events = await webhookTypes(tenant);
    expect(events.map((e) => e.type)).toEqual(['site_verified', 'site_verification_lost']);
    expect(events[0]!.data).toEqual({
      site_id: tenant.siteId,
      site_url: site.url,
      status: 'verified',
      method: 'file',
      reason: expect.any(String),
    });
    expect(events[1]!.data).toMatchObject({ status: 'lost', method: 'file' });
  });

  it("refuses a catch-all page that echoes its path, an HTML page, and another tenant's token", async () => {
    const echo = await keep(startSite({ routes: {}, fallback: (req) => text(`Niet gevonden: ${req.url}\n`) }));
    const tenant = await seedTenant(api.db, echo.url, { verified: false });
    const answer = await verify(tenant, 'file');
    expect(answer.body.status).toBe('unverified');
    expect((await verification(tenant)).body.checks.file).toMatchObject({ outcome: 'absent' });

    const other = await seedTenant(api.db, 'https://elders.example/', { verified: false });
    const otherToken = (await verification(other)).body.token;
    const shop = await keep(exposedShop({ [PROOF_PLACES.filePath]: text(`${otherToken}\n`) }));
    const mine = await seedTenant(api.db, shop.url, { verified: false });
    expect((await verify(mine, 'file')).body.status).toBe('unverified');
    const myToken = (await verification(mine)).body.token;
    shop.routesRef[PROOF_PLACES.filePath] = html(`<!doctype html><html><body>${myToken}</body></html>`);
    expect((await verify(mine, 'file')).body.status).toBe('unverified');
    expect((await verification(mine)).body.checks.file.reason).toContain('HTML');
  });
});

describe('checks that keep a claim true', () => {
  it("calls a CDN's 403 unknown with a reason to use DNS, and a plain 404 absent", async () => {
    const site = await keep(
      exposedShop({
        [PROOF_PLACES.filePath]: {
          status: 403,
          headers: { 'content-type': 'text/html', server: 'cloudflare', 'cf-mitigated': 'challenge' },
          body: '<!doctype html><title>Just a moment...</title>',
        },
      }),
    );
    const tenant = await seedTenant(api.db, site.url, { verified: false });
    await verify(tenant, 'file');
    expect((await verification(tenant)).body.checks.file).toMatchObject({
      outcome: 'unknown',
      reason: '403 van de CDN (botbescherming): gebruik DNS',
    });
    delete site.routesRef[PROOF_PLACES.filePath];
    await verify(tenant, 'file');
    expect((await verification(tenant)).body.checks.file).toMatchObject({ outcome: 'absent' });
  });

  it('checks the claims of scheduled sites daily, and loses one whose file is gone', async () => {
    const site = await keep(exposedShop());
    const tenant = await seedTenant(api.db, site.url, { verified: false });
    const clock = movableClock();
    const deps = { db: api.db, config: api.config, clock };
    await post(tenant, '/api/agent/webhooks', {
      url: 'https://hooks.example.nl/scanner',
      events: ['site_verified', 'site_verification_lost'],
    });
    site.routesRef[PROOF_PLACES.filePath] = text((await verification(tenant)).body.file.body);
    await verifySite(deps, systemActor(tenant.tenantId, 'test'), { site_id: tenant.siteId, method: 'file' });
    await api.call('PATCH', `/api/agent/sites/${tenant.siteId}`, {
      key: tenant.key,
      body: { scan_interval_hours: 24 },
    });
    delete site.routesRef[PROOF_PLACES.filePath];
    // Within the day nothing is asked; after it, the sweep finds the file gone.
    clock.advance(23 * 3600_000);
    expect((await sweepMonitoring(deps)).claimsChecked).toBe(0);
    clock.advance(2 * 3600_000);
    expect((await sweepMonitoring(deps)).claimsChecked).toBe(1);
    const claims = await claimsOfTenant(api.db, tenant.tenantId);
    expect(claims.map((c) => [c.method, c.status])).toEqual([['file', 'lost']]);
    const events = await webhookTypes(tenant);
    expect(events.map((e) => e.type)).toEqual(['site_verified', 'site_verification_lost']);
    expect(events[1]!.data).toMatchObject({
      site_id: tenant.siteId,
      status: 'lost',
      reason: expect.stringContaining('HTTP 404'),
    });
  });
});

describe('proof by meta tag', () => {
  it('verifies by a tag in the served head, and refuses one in the body or written by a script', async () => {
    const site = await keep(exposedShop());
    const tenant = await seedTenant(api.db, site.url, { verified: false });
    const { token, meta } = (await verification(tenant)).body;
    site.routesRef['/'] = html(
      `<!doctype html><html><head><title>x</title></head><body><p>Hallo</p>${meta.tag}</body></html>`,
    );
    expect((await verify(tenant, 'meta')).body.status).toBe('unverified');
    expect((await verification(tenant)).body.checks.meta.reason).toContain('<body>');
    site.routesRef['/'] = html(
      `<!doctype html><html><head><script>document.head.insertAdjacentHTML('beforeend','<meta name="${PROOF_PLACES.metaName}" content="${token}">')</script></head><body></body></html>`,
    );
    expect((await verify(tenant, 'meta')).body.status).toBe('unverified');
    site.routesRef['/'] = html(
      `<!doctype html><html><head><meta charset="utf-8">${meta.tag}<title>x</title></head><body></body></html>`,
    );
    expect((await verify(tenant, 'meta')).body).toMatchObject({ status: 'verified', method: 'meta' });
  });

  it('reads the head as a browser parser does', () => {
    const tag = (content: string) => `<meta name="${PROOF_PLACES.metaName}" content="${content}">`;
    expect(metaContents(`${tag('a')}<p>x</p>${tag('b')}`)).toEqual({ head: ['a'], elsewhere: ['b'] });
    expect(metaContents(`<html><head></head>${tag('c')}`)).toEqual({ head: [], elsewhere: ['c'] });
    expect(metaContents(`<head><template>${tag('d')}</template>${tag('e')}</head>`)).toEqual({
      head: ['e'],
      elsewhere: ['d'],
    });
    expect(metaContents(`<head><!-- ${tag('f')} --><script>"${tag('g')}"</script></head>`)).toEqual({
      head: [],
      elsewhere: [],
    });
  });
});

describe('proof by DNS', () => {
  it("verifies by a TXT record on the domain, which covers the www host; asked only through the scanner's resolver", async () => {
    const site = await keep(exposedShop());
    const url = `http://www.shop.test:${site.port}/`;
    const tenant = await seedTenant(api.db, url, { verified: false });
    const { dns: record, token } = (await verification(tenant)).body;
    expect(record).toEqual({ name: `${PROOF_PLACES.dnsLabel}.shop.test`, value: `${PROOF_PLACES.txtPrefix}${token}` });
    // Another tenant's record beside it changes nothing for either.
    zone[record.name] = { txt: [`${PROOF_PLACES.txtPrefix}someone-elses-token-0123456789abcdef`, record.value] };
    const answer = await verify(tenant, 'dns');
    expect(answer.body).toMatchObject({ status: 'verified', method: 'dns', covers: 'shop.test' });
    expect(dns.questions).toContain(`TXT ${record.name}`);
    const full = await scan(tenant);
    expect(full.passive).toBe(false);
    expect(full.findings.map((f: { finding_type: string }) => f.finding_type)).toContain('exposed_env_file');
  });

  it('keeps a claim while the name servers do not answer for three days, and loses it at seven', async () => {
    const site = await keep(exposedShop());
    const name = `${PROOF_PLACES.dnsLabel}.shop.test`;
    const tenant = await seedTenant(api.db, `http://shop.test:${site.port}/`, { verified: false });
    const token = (await verification(tenant)).body.token;
    zone[name] = { txt: [`${PROOF_PLACES.txtPrefix}${token}`] };
    const clock = movableClock();
    const deps = { db: api.db, config: api.config, clock };
    const actor = systemActor(tenant.tenantId, 'test');
    expect((await verifySite(deps, actor, { site_id: tenant.siteId, method: 'dns' })).status).toBe('verified');

    zone[name] = { servfail: ['TXT'] };
    zone['shop.test'] = { a: ['127.0.0.1'], servfail: ['TXT'] };
    const siteRow = (await findSite(api.db, tenant.tenantId, tenant.siteId))!;
    const status = async () => verificationOf(await claimsOfTenant(api.db, tenant.tenantId), siteRow.url, clock.now());
    clock.advance(3 * 24 * 3600_000);
    const control = await proofForScan(deps, tenant.tenantId, siteRow.url);
    expect(control.claims).toEqual([{ name: 'shop.test', method: 'dns' }]);
    expect(await status()).toMatchObject({ status: 'verified', reason: expect.stringContaining('SERVFAIL') });

    clock.advance(4 * 24 * 3600_000);
    const gone = await proofForScan(deps, tenant.tenantId, siteRow.url);
    expect(gone.claims).toEqual([]);
    expect(gone.refusal).toMatch(/^verificatie verloren op .*: niet opnieuw te controleren: /);
    expect(await status()).toMatchObject({ status: 'lost', lost_at: new Date(clock.now()).toISOString() });
    zone['shop.test'] = { a: ['127.0.0.1'] };
    delete zone[name];
  });
});

describe('tenants, permissions and operators', () => {
  it('gives intrusive tests only to the tenant that published, when two tenants have the same site', async () => {
    const site = await keep(exposedShop());
    const publisher = await seedTenant(api.db, site.url, { verified: false });
    const bystander = await seedTenant(api.db, site.url, { verified: false });
    site.routesRef[PROOF_PLACES.filePath] = text((await verification(publisher)).body.file.body);
    expect((await verify(publisher)).body.status).toBe('verified');
    expect((await verify(bystander)).body.status).toBe('unverified');
    expect((await scan(publisher)).passive).toBe(false);
    expect((await scan(bystander)).passive).toBe(true);
  });

  it("answers 404 for another tenant's site, 403 to a read-only key, and 429 past the per-site limit", async () => {
    const site = await keep(exposedShop());
    const owner = await seedTenant(api.db, site.url, { verified: false });
    const stranger = await seedTenant(api.db, site.url, { verified: false });
    const foreign = `/api/agent/sites/${owner.siteId}`;
    expect((await get(stranger, `${foreign}/verification`)).status).toBe(404);
    expect((await post(stranger, `${foreign}/verify`, {})).status).toBe(404);
    const reader = await seedTenant(api.db, site.url, {
      verified: false,
      permissions: ['read_scans', 'read_config'],
    });
    expect((await verification(reader)).status).toBe(200);
    const refused = await verify(reader);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: expect.stringContaining('write_config') });
    expect((await verify(owner, 'smoke')).status).toBe(400);

    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof verify>> | null = null;
    for (let i = 0; i < 8; i++) {
      last = await verify(owner, 'file');
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 6)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(last!.status).toBe(429);
    expect(last!.body).toEqual({ error: expect.stringContaining('Te veel controles') });
    const retryAfter = Number(last!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('lets an operator vouch (audited) and take it back, and rotates a token so the old one verifies nothing', async () => {
    const site = await keep(exposedShop());
    const tenant = await seedTenant(api.db, site.url, { verified: false });
    const io = () => {
      const out = { stdout: '', stderr: '' };
      return {
        out,
        io: {
          stdout: { write: (t: string) => (out.stdout += t) },
          stderr: { write: (t: string) => (out.stderr += t) },
          env: { ...process.env, ...api.dbEnv, SUDO_USER: '', USER: 'beheerder-anna' },
        },
      };
    };
    const cli = async (...args: string[]) => {
      const run = io();
      const code = await runAdmin([...args, '--json'], run.io);
      return { code, ...run.out, json: code === 0 ? JSON.parse(run.out.stdout) : null };
    };
    expect((await cli('site', 'verify', '--site', tenant.siteId, '--operator')).code).toBe(1);
    const vouched = await cli(
      'site',
      'verify',
      '--site',
      tenant.siteId,
      '--operator',
      '--reason',
      'contract met de klant',
    );
    expect(vouched.code, vouched.stderr).toBe(0);
    expect(vouched.json).toMatchObject({ status: 'verified', method: 'operator', reason: 'contract met de klant' });
    expect((await scan(tenant)).passive).toBe(false);
    const unverified = await cli('site', 'unverify', '--site', tenant.siteId);
    expect(unverified.json).toMatchObject({ status: 'unverified', method: null });
    expect((await scan(tenant)).passive).toBe(true);
    const audit = await auditOfTenant(api.db, tenant.tenantId);
    expect(audit.map((a) => [a.action, a.operator, a.reason])).toEqual([
      ['site_verify', 'beheerder-anna', 'contract met de klant'],
      ['site_unverify', 'beheerder-anna', null],
    ]);

    const oldToken = (await verification(tenant)).body.token;
    site.routesRef[PROOF_PLACES.filePath] = text(`${oldToken}\n`);
    expect((await verify(tenant, 'file')).body.status).toBe('verified');
    const rotated = await cli('tenant', 'token', 'rotate', '--id', tenant.tenantId);
    expect(rotated.json).toEqual({ tenant_id: tenant.tenantId, rotated: true });
    const newToken = (await verification(tenant)).body.token;
    expect(newToken).not.toBe(oldToken);
    // The claim is due at once: the next scan looks for the new token, finds the old one, and is passive.
    const after = await scan(tenant);
    expect(after.passive).toBe(true);
    expect((await get(tenant, `/api/agent/sites/${tenant.siteId}`)).body.verification.status).toBe('lost');
  });
});
