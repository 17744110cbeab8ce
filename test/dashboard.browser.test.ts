import { PROOF_PLACES } from '../scanner/probes/control-proof.ts';
import { rmSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanSite } from '../scanner/scan.ts';
import * as admin from '../services/admin.ts';
import { SHIPPED_RETIRE, startApi, type TestApi } from './support/api.ts';
import { importVulnerabilityFile } from '../services/vulnerability-data.ts';
import {
  buildDashboard,
  launchChromium,
  requireChromiumOrSkip,
  screenshot,
  seriousViolations,
  type AxeViolation,
} from './support/browser.ts';
import { startSite, type FixtureSite } from './support/fixture-sites.ts';
import { startReceiver, waitFor, type Receiver } from './support/receiver.ts';

// The dashboard in Debian's chromium, driven by the accessible names people and screen readers use.
// One story, in order: each step builds on the one before (the owner's account, site, key, webhook).

const OWNER = { email: 'eigenaar@winkel.example', password: 'een-lang-wachtwoord-1' };
const withBrowser = requireChromiumOrSkip();

let api: TestApi;
let webRoot: string;
let browser: Browser;
let site: FixtureSite;
let receiver: Receiver;
let owner: BrowserContext;
let page: Page;
const violations: Array<{ page: string } & AxeViolation> = [];
const cspErrors: string[] = [];

async function newPage(context: BrowserContext): Promise<Page> {
  const opened = await context.newPage();
  opened.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) cspErrors.push(message.text());
  });
  return opened;
}

/** Checks the page as it is now with axe-core and keeps a screenshot for the README. */
async function inspect(on: Page, name: string): Promise<void> {
  for (const violation of await seriousViolations(on)) violations.push({ page: name, ...violation });
  await screenshot(on, name);
}

/** At 375 px (a phone) nothing is wider than the screen; the message names what sticks out. */
async function fitsPhone(on: Page, name: string): Promise<void> {
  await on.setViewportSize({ width: 375, height: 800 });
  const widest = await on.evaluate(
    `[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > 376).map((e) => e.tagName + '.' + e.className).slice(0, 5).join(' ')`,
  );
  expect(await on.evaluate('document.documentElement.scrollWidth'), `${name}: ${String(widest)}`).toBeLessThanOrEqual(
    375,
  );
  await screenshot(on, `${name}-telefoon`);
  await on.setViewportSize({ width: 1280, height: 900 });
}

const nav = (on: Page, name: string) =>
  on.getByRole('navigation', { name: 'Hoofdmenu' }).getByRole('link', { name, exact: true }).click();
const heading = (on: Page, name: string) => on.getByRole('heading', { name, level: 1 }).waitFor();
const rest = (path: string, key: string) => fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${key}` } });

async function logIn(context: BrowserContext, email: string, password: string): Promise<Page> {
  const opened = await newPage(context);
  await opened.goto('/');
  await opened.getByLabel('E-mailadres').fill(email);
  await opened.getByLabel('Wachtwoord').fill(password);
  await opened.getByRole('button', { name: 'Inloggen' }).click();
  await heading(opened, 'Overzicht');
  return opened;
}

describe.runIf(withBrowser)('the dashboard in a real browser', () => {
  beforeAll(async () => {
    webRoot = await buildDashboard();
    [api, browser, site, receiver] = await Promise.all([
      startApi({ WEBHOOK_POLL_INTERVAL: '50ms' }, { webRoot }),
      launchChromium(),
      startSite({
        gzip: true,
        routes: {
          '/': {
            headers: { 'content-type': 'text/html; charset=utf-8', server: 'nginx/1.24.0' },
            body: '<!doctype html><title>Winkel</title><h1>Welkom bij de winkel</h1>',
          },
        },
      }),
      startReceiver(),
    ]);
    owner = await browser.newContext({ baseURL: api.url, permissions: ['clipboard-read', 'clipboard-write'] });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([api?.close(), site?.close(), receiver?.close()]);
    if (webRoot) rmSync(webRoot, { recursive: true, force: true });
  });

  it('signs up: a free tenant with the new person as owner, logged in', async () => {
    page = await newPage(owner);
    await page.goto('/');
    await inspect(page, 'inloggen');
    await page.getByLabel('E-mailadres').fill(OWNER.email);
    await page.getByLabel('Wachtwoord').fill(OWNER.password);
    await page.getByRole('button', { name: 'Account aanmaken' }).click();
    await heading(page, 'Overzicht');
    const user = await api.db
      .selectFrom('users')
      .innerJoin('tenants', 'tenants.id', 'users.tenant_id')
      .innerJoin('plans', 'plans.id', 'tenants.plan_id')
      .select(['users.role', 'plans.tier'])
      .where('users.email', '=', OWNER.email)
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ role: 'owner', tier: 'free' });
    const cookie = (await owner.cookies()).find((c) => c.name === 'session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  });

  it('adds a site, scans the local fixture site and shows its grade and findings', async () => {
    await page.getByLabel('Naam').fill('Winkel');
    await page.getByLabel('URL').fill(site.url);
    await page.getByRole('button', { name: 'Site toevoegen' }).click();
    await heading(page, 'Winkel');
    // A new site is unverified: its scans stay passive until the owner publishes the account's token.
    await page
      .getByRole('note')
      .getByText(/^Passieve scans\./)
      .waitFor();
    const proof = page.getByRole('region', { name: 'Eigendom aantonen' });
    await proof.getByText(/^DNS-record/).waitFor();
    const token = (await proof.locator('.copyable', { hasText: 'Inhoud' }).locator('code').textContent())!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    site.routesRef[PROOF_PLACES.filePath] = { headers: { 'content-type': 'text/plain' }, body: `${token}\n` };
    await proof.getByRole('button', { name: 'Controleer nu' }).click();
    await proof.getByText('Eigendom aangetoond.').waitFor();
    await expect.poll(() => page.getByText(/^Passieve scans\./).count()).toBe(0);
    await page.getByRole('button', { name: 'Scan starten' }).click();
    await page.getByText(/^Scan klaar: cijfer/).waitFor({ timeout: 30_000 });
    const scan = await api.db.selectFrom('scans').select(['grade', 'score', 'trigger']).executeTakeFirstOrThrow();
    expect(scan.trigger).toBe('dashboard');
    await page.getByText(`Cijfer: ${scan.grade} (${scan.score}/100)`).waitFor();
    const findings = page.getByRole('region', { name: 'Bevindingen van de laatste scan' }).getByRole('listitem');
    await findings.first().waitFor();
    expect(await findings.count()).toBeGreaterThan(0);
    await page.getByRole('img', { name: /^Scoregeschiedenis/ }).waitFor();
    // A first scan: every finding new, and one line in the timeline that says so.
    const changes = page.getByRole('region', { name: 'Wat is er veranderd' });
    await changes.getByText('De eerste scan: alles is nieuw.').waitFor();
    expect(await changes.getByRole('listitem').count()).toBe(await findings.count());
    await page
      .getByRole('region', { name: 'Tijdlijn' })
      .getByText(/nieuw\)$/)
      .click();
    // Opening a scan on the timeline shows its own changes beside the latest scan's.
    await expect.poll(() => page.getByRole('region', { name: 'Wat is er veranderd' }).count()).toBe(2);
    // internet.nl's four parts, in its own words.
    await page
      .getByRole('region', { name: 'Internet.nl-websitetest' })
      .getByText(/^Beveiligde verbinding \(HTTPS\)/)
      .waitFor();
    // The mail test: a site at an IP address has no mail domain, and says so.
    await page
      .getByRole('region', { name: /^Internet\.nl-mailtest van / })
      .getByText(/^Niet van toepassing: een IP-adres/)
      .waitFor();
    await inspect(page, 'site');
    await page.getByRole('list', { name: 'Deelscores' }).getByText('SSL/TLS').waitFor();
    await page.getByRole('list', { name: 'Deelscores' }).getByText('Beveiligingsheaders').waitFor();
    await page.getByRole('list', { name: 'Deelscores' }).getByText('Blootgestelde endpoints').waitFor();
    // What cost how many points and which cap applied.
    await page.getByText(`Hoe de score ${scan.score} tot stand kwam`).click();
    await page.getByRole('rowheader', { name: 'Na aftrek' }).waitFor();
    await page.getByText(/^Webserver: /).waitFor();
    await fitsPhone(page, 'site');
    // The next scans test the mail of the domain entered here.
    await page.getByLabel('Maildomein').fill('winkel.nl');
    await page.getByRole('button', { name: 'Maildomein opslaan' }).click();
    await page.getByText('Maildomein opgeslagen.').waitFor();
    expect((await api.db.selectFrom('sites').select('mail_domain').executeTakeFirstOrThrow()).mail_domain).toBe(
      'winkel.nl',
    );
    // Back to the default: a later scan must not ask DNS about a domain outside the test.
    await api.db.updateTable('sites').set({ mail_domain: null }).execute();
    // The pages the scan examined, and the site's crawl settings.
    await page
      .getByRole('region', { name: "Onderzochte pagina's" })
      .getByText(/^1 van hoogstens 1 pagina/)
      .waitFor();
    await page.getByLabel("Pagina's per scan").fill('3');
    await page.getByLabel('Deze paden overslaan').fill('/beheer/\n/blog/');
    await page.getByRole('button', { name: 'Crawlinstellingen opslaan' }).click();
    await page.getByText('Crawlinstellingen opgeslagen.').waitFor();
    const crawl = await api.db.selectFrom('sites').select(['max_pages', 'exclude_paths']).executeTakeFirstOrThrow();
    expect(crawl).toEqual({ max_pages: 3, exclude_paths: JSON.stringify(['/beheer/', '/blog/']) });
    await api.db.updateTable('sites').set({ max_pages: 1, exclude_paths: '[]' }).execute();
    await nav(page, 'Overzicht');
    await page.getByRole('link', { name: 'Winkel' }).waitFor();
    await page.getByRole('img', { name: `Scoreverloop: ${scan.score}` }).waitFor();
    await inspect(page, 'overzicht');
    await fitsPhone(page, 'overzicht');
  });

  it('says which parts a scan did not check and why, and no longer calls it all in order', async () => {
    await admin.setFlag({ db: api.db, config: api.config }, { key: 'exposure_probes', enabled: false });
    try {
      await nav(page, 'Overzicht');
      await page.getByRole('link', { name: 'Winkel' }).click();
      await heading(page, 'Winkel');
      await page.getByRole('button', { name: 'Scan starten' }).click();
      await page.getByText(/^Scan klaar: cijfer/).waitFor({ timeout: 30_000 });
      const gaps = page.getByRole('region', { name: 'Niet gecontroleerd' });
      await gaps
        .getByText(/^exposures op http:\/\/127\.0\.0\.1:\d+: overgeslagen \(uitgeschakeld door de beheerder\)$/)
        .waitFor();
      await inspect(page, 'site-niet-gecontroleerd');
    } finally {
      await admin.setFlag({ db: api.db, config: api.config }, { key: 'exposure_probes', enabled: true });
    }
  });

  it('warns on the site page when the vulnerability data is stale', async () => {
    const at = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    await importVulnerabilityFile({ db: api.db }, { source: 'retire', file: SHIPPED_RETIRE, date: at(20) });
    try {
      await nav(page, 'Overzicht');
      await page.getByRole('link', { name: 'Winkel' }).click();
      await heading(page, 'Winkel');
      // The dashboard keeps what it read for a few seconds: a new visit reads it again.
      await page.reload();
      await page.getByText(/de kwetsbaarheidsgegevens van retire\.js zijn 20 dagen oud/).waitFor();
    } finally {
      await importVulnerabilityFile({ db: api.db }, { source: 'retire', file: SHIPPED_RETIRE, date: at(0) });
    }
  });

  it('opens a finding from the findings list: its page has impact, remedy, found and expected values and the reference', async () => {
    await nav(page, 'Bevindingen');
    await heading(page, 'Bevindingen');
    const first = page.getByRole('list', { name: 'Gevonden bevindingen' }).getByRole('link').first();
    await first.waitFor();
    await inspect(page, 'bevindingen');
    const title = (await first.textContent())!;
    await first.click();
    await heading(page, title);
    for (const name of [
      'Impact',
      'Oplossing',
      'Gevonden waarde',
      'Verwachte waarde',
      'Meer informatie',
      'Status',
      'Gezien in scans',
      'Voorstellen',
    ]) {
      await page.getByRole('region', { name }).waitFor();
    }
    await page.getByRole('region', { name: 'Gezien in scans' }).getByRole('listitem').first().waitFor();
    await page.getByRole('region', { name: 'Meer informatie' }).getByRole('link').waitFor();
    await inspect(page, 'bevinding');
    await fitsPhone(page, 'bevinding');
  });

  it("changes a finding's status on its page, recorded with who, when and why", async () => {
    const status = page.getByRole('combobox', { name: /^Status van/ }).first();
    await status.waitFor();
    await status.selectOption('ACCEPTED_RISK');
    await page.getByLabel('Reden').fill('Alleen intern bereikbaar');
    await page.getByLabel('Eigenaar van het risico').selectOption({ label: OWNER.email });
    const until = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('Geaccepteerd tot en met').fill(until);
    await page.getByRole('button', { name: 'Status opslaan' }).first().click();
    await page
      .getByText(new RegExp(`Risico geaccepteerd door ${OWNER.email} op .*: Alleen intern bereikbaar`))
      .waitFor();
    await page.getByText(new RegExp(`Risico geaccepteerd tot .*, eigenaar ${OWNER.email}`)).waitFor();
    const acceptance = await api.db.selectFrom('finding_acceptances').selectAll().executeTakeFirstOrThrow();
    expect(acceptance).toMatchObject({ reason: 'Alleen intern bereikbaar', created_by: OWNER.email, ended_at: null });
    // The end of the chosen day in the browser's time zone.
    expect(Math.abs(Date.parse(acceptance.expires_at) - Date.parse(`${until}T23:59:59Z`))).toBeLessThan(86_400_000);
    const change = await api.db
      .selectFrom('finding_status_changes')
      .selectAll()
      .where('status', '=', 'ACCEPTED_RISK')
      .executeTakeFirstOrThrow();
    expect(change).toMatchObject({
      status: 'ACCEPTED_RISK',
      reason: 'Alleen intern bereikbaar',
      actor_kind: 'user',
      actor_label: OWNER.email,
    });
    await inspect(page, 'bevinding-status');
  });

  it('creates a key shown once, which works on the REST API, and revokes it: 401 at once', async () => {
    await nav(page, 'API-sleutels');
    await page.getByLabel('Naam').fill('ci-pijplijn');
    await page.getByRole('button', { name: 'Sleutel aanmaken' }).click();
    const shown = page.getByRole('region', { name: 'Nieuwe API-sleutel' });
    const key = (await shown.locator('code').textContent())!;
    expect(key).toMatch(/^sak_/);
    await shown.getByRole('button', { name: 'Kopiëren' }).click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
    expect((await rest('/api/agent/scans', key)).status).toBe(200);
    await page
      .getByRole('row', { name: /ci-pijplijn/ })
      .getByRole('cell', { name: /^sak_/ })
      .waitFor();
    await inspect(page, 'api-sleutels');
    await page.getByRole('button', { name: 'Intrekken' }).click();
    await page.getByText(/^Ingetrokken/).waitFor();
    expect((await rest('/api/agent/scans', key)).status).toBe(401);
  });

  it('shows the notification rules, starting with Standaard', async () => {
    await nav(page, 'Meldingen');
    await page.getByRole('heading', { name: 'Meldingen', level: 1 }).waitFor();
    await page.getByRole('region', { name: 'Regels' }).getByText('Standaard').waitFor();
    await inspect(page, 'meldingen');
  });

  it('registers a webhook with its secret shown once, and shows its deliveries', async () => {
    await nav(page, 'Webhooks');
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByLabel('suggestion_reviewed').check();
    await page.getByRole('button', { name: 'Webhook toevoegen' }).click();
    expect(await page.getByRole('region', { name: 'Nieuw webhookgeheim' }).locator('code').textContent()).toMatch(
      /^whsec_/,
    );
    await nav(page, 'Overzicht');
    await page.getByRole('link', { name: 'Winkel' }).click();
    await page.getByRole('button', { name: 'Scan starten' }).click();
    await page.getByText(/^Scan klaar: cijfer/).waitFor({ timeout: 30_000 });
    await waitFor(() => receiver.delivered().some((r) => r.json.type === 'scan_completed'));
    await nav(page, 'Webhooks');
    await page.getByRole('button', { name: 'Afleveringen' }).click();
    await page
      .getByRole('table', { name: 'Afleveringen' })
      .getByRole('cell', { name: 'scan_completed' })
      .first()
      .waitFor();
    await inspect(page, 'webhooks');
  });

  it("lets staff approve a tenant's suggestion; the tenant's webhook receives suggestion_reviewed", async () => {
    const tenantId = (
      await api.db.selectFrom('users').select('tenant_id').where('email', '=', OWNER.email).executeTakeFirstOrThrow()
    ).tenant_id;
    const userId = (
      await api.db.selectFrom('users').select('id').where('email', '=', OWNER.email).executeTakeFirstOrThrow()
    ).id;
    const agent = await admin.createKey(
      { db: api.db, config: api.config },
      {
        user_id: userId,
        name: 'agent',
        permissions: ['suggest_fixes'],
      },
    );
    const submitted = await fetch(`${api.url}/api/agent/suggestions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agent.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'config_change',
        title: 'HSTS aanzetten',
        description: 'Voeg de header toe in nginx.',
        file_path: 'nginx.conf',
        diff: '--- a/nginx.conf\n+++ b/nginx.conf\n@@ -1 +1,2 @@\n server {\n+  add_header Strict-Transport-Security "max-age=63072000" always;',
      }),
    });
    expect(submitted.status).toBe(201);
    const team = await admin.createTenant(
      { db: api.db, config: api.config },
      {
        name: 'De dienst',
        plan: 'enterprise',
      },
    );
    const staff = await admin.createUser(
      { db: api.db, config: api.config },
      {
        tenant_id: team.id,
        email: 'staf@dienst.example',
        staff: true,
      },
    );
    const staffContext = await browser.newContext({ baseURL: api.url });
    try {
      const staffPage = await logIn(staffContext, 'staf@dienst.example', String(staff.initial_password));
      await nav(staffPage, 'Suggesties');
      const item = staffPage.getByRole('listitem').filter({ hasText: 'HSTS aanzetten' });
      await item.getByLabel('Voorgestelde wijziging').getByText('+  add_header Strict-Transport-Security').waitFor();
      await inspect(staffPage, 'suggesties');
      await item.getByLabel('Notities').fill('Prima voorstel');
      await item.getByRole('button', { name: 'Goedkeuren' }).click();
      const reviewed = await waitFor(() => receiver.delivered().find((r) => r.json.type === 'suggestion_reviewed'));
      expect(reviewed.json.data).toMatchObject({
        title: 'HSTS aanzetten',
        status: 'approved',
        review_notes: 'Prima voorstel',
      });
      await staffPage.getByText('Niets te beoordelen.').waitFor();
      await nav(staffPage, 'Platform');
      await staffPage.getByRole('row', { name: /De dienst/ }).waitFor();
      await inspect(staffPage, 'platform');
    } finally {
      await staffContext.close();
    }
    await nav(page, 'Suggesties');
    await page
      .getByRole('row', { name: /HSTS aanzetten/ })
      .getByRole('cell', { name: 'Goedgekeurd' })
      .waitFor();
    expect(tenantId).toBeTruthy();
  });

  it('invites a member through a one-time link; the member is refused key creation', async () => {
    await nav(page, 'Team');
    await page.getByLabel('E-mailadres').fill('lid@winkel.example');
    await page.getByRole('button', { name: 'Uitnodigen' }).click();
    const link = (await page.getByRole('region', { name: 'Uitnodigingslink' }).locator('code').textContent())!;
    expect(link).toMatch(/\/uitnodiging#[\w-]{43}$/);
    await inspect(page, 'team');
    const memberContext = await browser.newContext({ baseURL: api.url });
    try {
      const member = await newPage(memberContext);
      await member.goto(link);
      await member.getByLabel('Wachtwoord').fill('nog-een-lang-wachtwoord');
      await member.getByRole('button', { name: 'Wachtwoord instellen' }).click();
      await heading(member, 'Overzicht');
      await nav(member, 'API-sleutels');
      await member.getByLabel('Naam').fill('mag-niet');
      await member.getByRole('button', { name: 'Sleutel aanmaken' }).click();
      await member
        .getByRole('alert')
        .filter({ hasText: 'Onvoldoende rechten: uw rol staat write_config niet toe.' })
        .waitFor();
      expect(await api.db.selectFrom('api_keys').select('id').where('name', '=', 'mag-niet').execute()).toEqual([]);
      // The link worked once.
      const again = await newPage(await browser.newContext({ baseURL: api.url }));
      await again.goto(link);
      await again.getByLabel('Wachtwoord').fill('nog-een-lang-wachtwoord');
      await again.getByRole('button', { name: 'Wachtwoord instellen' }).click();
      await again
        .getByRole('alert')
        .filter({ hasText: /Uitnodiging/ })
        .waitFor();
    } finally {
      await memberContext.close();
    }
  });

  it('logs out: the session ends on the server too', async () => {
    const before = (await owner.cookies()).find((c) => c.name === 'session')!.value;
    await page.getByRole('button', { name: 'Uitloggen' }).click();
    await page.getByRole('button', { name: 'Inloggen' }).waitFor();
    const me = await fetch(`${api.url}/trpc/account.me`, { headers: { cookie: `session=${before}` } });
    expect(me.status).toBe(401);
  });

  it('has an accessibility check that does find a violation where there is one', async () => {
    const probe = await owner.newPage();
    await probe.setContent(
      '<!doctype html><html lang="nl"><title>x</title><main><input type="text"><button></button></main></html>',
    );
    expect((await seriousViolations(probe)).map((v) => v.id).sort()).toEqual(['button-name', 'label']);
    await probe.close();
  });

  it('has no serious or critical accessibility violation on any page visited, and no CSP violation', () => {
    expect(
      violations.map(
        (v) => `${v.page}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
      ),
    ).toEqual([]);
    expect(cspErrors).toEqual([]);
  });

  it.each(['/', '/bevindingen'])(
    'passes its own scanner on the dashboard page %s: no SECURITY_HEADER finding above LOW',
    async (path) => {
      const result = await scanSite(`${api.url}${path}`, { allowPrivateTargets: true, probeExposures: false });
      expect(
        result.findings
          .filter((f) => f.category === 'SECURITY_HEADER' && f.severity !== 'LOW')
          .map((f) => f.finding_type),
      ).toEqual([]);
    },
  );
});
