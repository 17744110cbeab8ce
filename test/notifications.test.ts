import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as admin from '../services/admin.ts';
import { startMailRelay, type MailRelay } from './support/mail-relay.ts';
import { certificate, startSite, type FixtureSite, type Reply } from './support/fixture-sites.ts';
import { random } from './support/secret-samples.ts';
import { seedTenant, startApi, type Tenant, type TestApi } from './support/api.ts';
import { waitFor } from './support/receiver.ts';

const PUBLIC_URL = 'https://scanner.test';
let relay: MailRelay;
let chat: FixtureSite;
let shop: FixtureSite;
let api: TestApi;
let tenant: Tenant;
let owner: string;
const stripeKey = `sk_live_51${random(97)}`;
/** More keys the site publishes later, each a new CRITICAL finding in a script of its own. */
const laterKeys = [`rk_live_51${random(97)}`, `rk_live_51${random(97)}`];
const withScripts = (...paths: string[]) =>
  html(`<h1>Winkel</h1>${paths.map((p) => `<script src="${p}"></script>`).join('')}`, {
    'set-cookie': 'sessionid=1; Path=/',
  });
/** What the chat receiver got, by path. */
const chatPosts: Array<{ path: string; body: string }> = [];
/** How the chat receiver answers next, per path (the platforms' answers). */
const chatAnswers: Record<string, Reply[]> = {};

const html = (body: string, headers: Record<string, string> = {}): Reply => ({
  headers: { 'content-type': 'text/html; charset=utf-8', server: 'nginx/1.18.0', ...headers },
  body: `<!doctype html><html><head><title>Winkel</title></head><body>${body}</body></html>`,
});

function receiver(path: string) {
  return (req: { method?: string }, body: string): Reply => {
    if (req.method === 'POST') chatPosts.push({ path, body });
    return chatAnswers[path]?.shift() ?? { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' };
  };
}

beforeAll(async () => {
  relay = await startMailRelay();
  chat = await startSite({
    routes: { '/slack': receiver('/slack'), '/teams': receiver('/teams'), '/gone': receiver('/gone') },
    tls: { certificate: certificate({ hosts: ['127.0.0.1'] }) },
  });
  shop = await startSite({
    routes: {
      '/': html('<h1>Winkel</h1><script src="/app.js"></script>', { 'set-cookie': 'sessionid=1; Path=/' }),
      '/app.js': {
        headers: { 'content-type': 'application/javascript' },
        body: `const k=${JSON.stringify(stripeKey)};`,
      },
      ...Object.fromEntries(
        laterKeys.map((key, i) => [
          `/later-${i + 1}.js`,
          { headers: { 'content-type': 'application/javascript' }, body: `const k=${JSON.stringify(key)};` },
        ]),
      ),
    },
  });
  api = await startApi({
    ...relay.env,
    PUBLIC_URL,
    NOTIFY_POLL_INTERVAL: '50ms',
    NOTIFY_RETRY_SCHEDULE: '300ms,300ms,300ms,300ms,300ms,300ms',
  });
  tenant = await seedTenant(api.db, shop.url);
  owner = (await api.db.selectFrom('users').select('email').where('id', '=', tenant.userId).executeTakeFirstOrThrow())
    .email;
});
afterAll(async () => {
  await api.close();
  await Promise.all([relay.close(), chat.close(), shop.close()]);
});

const call = (method: string, path: string, body?: unknown) => api.call(method, path, { key: tenant.key, body });
const scan = async () => {
  const created = await call('POST', '/api/agent/scan', { site_id: tenant.siteId });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
};
const settle = () => new Promise((resolve) => setTimeout(resolve, 600));
const chatUrl = (path: string) => `${chat.url.replace(/\/$/, '')}${path}`;
const mailsTo = (address: string) => relay.mails.filter((m) => m.to.includes(address));
/** No message carries a found value or any part of the secret. */
function assertClean(text: string) {
  for (const key of [stripeKey, ...laterKeys]) {
    expect(text).not.toContain(key);
    expect(text).not.toContain(key.slice(-4));
    expect(text).not.toContain(key.slice(0, 14));
  }
  expect(text).not.toContain('nginx/1.18.0');
  expect(text).not.toContain('sessionid');
}

describe('notifications', () => {
  let slackId: string;
  let mailId: string;
  const outside = 'extern@partner.test';

  it('gives every tenant the "Standaard" rule', async () => {
    const rules = await call('GET', '/api/agent/notifications/rules');
    expect(rules.status).toBe(200);
    expect(rules.body.rules).toEqual([
      expect.objectContaining({
        name: 'Standaard',
        min_severity: 'HIGH',
        events: ['new', 'regressed'],
        mode: 'immediate',
        roles: ['owner', 'admin'],
        quiet_hours: { from: '22:00', to: '07:00', zone: 'Europe/Amsterdam' },
        critical_bypasses_quiet: true,
        rest: { mode: 'weekly', at: { hour: 9, weekday: 1 } },
      }),
    ]);
    // This test's own rule replaces it: one mail and one chat message per scan are counted below.
    expect((await call('DELETE', `/api/agent/notifications/rules/${rules.body.rules[0].id}`)).status).toBe(200);
  });

  it('adds channels, shows a hint of the target and never the target, and confirms an outside address first', async () => {
    const slack = await call('POST', '/api/agent/notifications/channels', {
      kind: 'slack',
      name: 'Beveiliging',
      target: { url: chatUrl('/slack') },
    });
    expect(slack.status, JSON.stringify(slack.body)).toBe(201);
    expect(slack.body.channel).toMatchObject({ kind: 'slack', enabled: true, failure_count: 0, disabled_reason: null });
    expect(slack.body.channel.target_hint).toMatch(/^127\.0\.0\.1:\d+ …lack$/);
    expect(JSON.stringify(slack.body)).not.toContain('/slack');
    slackId = slack.body.channel.id;
    const mail = await call('POST', '/api/agent/notifications/channels', {
      kind: 'email',
      name: 'Team',
      target: { addresses: [owner, outside] },
    });
    expect(mail.status, JSON.stringify(mail.body)).toBe(201);
    expect(mail.body.channel.recipients).toHaveLength(2);
    expect(mail.body.channel.recipients).toEqual(
      expect.arrayContaining([
        { address: owner, confirmed: true },
        { address: outside, confirmed: false },
      ]),
    );
    mailId = mail.body.channel.id;
    const stored = await api.db
      .selectFrom('notification_channels')
      .select('target')
      .where('id', '=', slackId)
      .executeTakeFirstOrThrow();
    expect(stored.target).not.toContain('127.0.0.1');
    // The outside address gets its confirmation at once.
    await waitFor(() => mailsTo(outside).length === 1);
    expect(mailsTo(outside)[0]!.text).toContain(`${PUBLIC_URL}/meldingen/bevestigen?token=`);
    const rule = await call('POST', '/api/agent/notifications/rules', {
      name: 'Hoog en kritiek',
      min_severity: 'HIGH',
      events: ['new', 'regressed'],
      mode: 'immediate',
      channel_ids: [slackId, mailId],
      roles: [],
      quiet_hours: null,
      critical_bypasses_quiet: true,
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    expect(rule.body.rule).toMatchObject({ name: 'Hoog en kritiek', site_ids: null, at: null, rest: null });
  });

  it('sends one mail and one Slack message for a scan with new HIGH findings, and nothing for a rescan', async () => {
    const before = relay.mails.length;
    await scan();
    await waitFor(() => chatPosts.filter((p) => p.path === '/slack').length === 1 && mailsTo(owner).length === 1);
    await settle();
    expect(relay.mails.length - before).toBe(1);
    const [mail] = mailsTo(owner);
    expect(mail!.headers.subject).toMatch(/^\[Beveiligingsscan\]/);
    expect(mail!.text).toMatch(/Eerste scan van Testsite/);
    expect(mail!.text).toContain(`${PUBLIC_URL}/sites/${tenant.siteId}`);
    expect(mail!.text).toMatch(/HIGH Sessiecookie/);
    expect(mail!.headers['list-unsubscribe']).toMatch(new RegExp(`^<${PUBLIC_URL}/meldingen/afmelden\\?token=`));
    expect(mail!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    assertClean(mail!.raw);
    assertClean(mail!.text);
    const slack = JSON.parse(chatPosts.find((p) => p.path === '/slack')!.body);
    expect(slack.blocks[0]).toMatchObject({ type: 'header', text: { type: 'plain_text' } });
    expect(slack.blocks[1].text.verbatim).toBe(true);
    expect(JSON.stringify(slack)).toContain(`${PUBLIC_URL}/sites/${tenant.siteId}`);
    assertClean(JSON.stringify(slack));
    // The outside address has not confirmed: its message is suppressed, never sent.
    const deliveries = (await call('GET', '/api/agent/notifications/deliveries')).body.deliveries;
    expect(deliveries.filter((d: { status: string }) => d.status === 'suppressed')).toHaveLength(1);
    expect(mailsTo(outside)).toHaveLength(1);
    // A rescan with nothing new sends nothing.
    const count = relay.mails.length;
    await scan();
    await settle();
    expect(relay.mails.length).toBe(count);
    expect(chatPosts.filter((p) => p.path === '/slack')).toHaveLength(1);
  });

  it('sends to an outside address once it confirmed, by a POST: the GET only shows a button', async () => {
    const link = /https:\/\/scanner\.test(\/meldingen\/bevestigen\?token=[A-Za-z0-9_-]+)/.exec(
      mailsTo(outside)[0]!.text,
    )![1]!;
    const page = await api.call('GET', link);
    expect(page.status, `${link} ${JSON.stringify(page.body)}`).toBe(200);
    expect(String(page.body)).toContain('<button');
    expect(
      (await call('GET', '/api/agent/notifications/channels')).body.channels
        .find((c: { id: string }) => c.id === mailId)
        .recipients.find((r: { address: string }) => r.address === outside).confirmed,
    ).toBe(false);
    const confirmed = await api.call('POST', link, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: 'List-Unsubscribe=One-Click',
    });
    expect(confirmed.status, String(confirmed.body)).toBe(200);
    expect(
      (await call('GET', '/api/agent/notifications/channels')).body.channels
        .find((c: { id: string }) => c.id === mailId)
        .recipients.find((r: { address: string }) => r.address === outside).confirmed,
    ).toBe(true);
    // A new problem: both addresses hear of it.
    shop.routesRef['/'] = html(
      '<h1>Winkel</h1><script src="/app.js"></script><form action="http://elders.test/login"><input type="password"></form>',
      { 'set-cookie': 'sessionid=1; Path=/' },
    );
    await scan();
    await waitFor(() => mailsTo(outside).length === 2 && mailsTo(owner).length === 2);
    expect(mailsTo(outside)[1]!.text, mailsTo(outside)[1]!.text).toMatch(
      /HIGH Wachtwoordveld op een pagina zonder HTTPS \(nieuw\)/,
    );
    assertClean(mailsTo(outside)[1]!.raw);
  });

  it('unsubscribes one recipient by a one-click POST; a GET of the link changes nothing', async () => {
    const unsubscribe = mailsTo(outside)[1]!.headers['list-unsubscribe']!.slice(1, -1).replace(PUBLIC_URL, '');
    const shown = await api.call('GET', unsubscribe);
    expect(shown.status).toBe(200);
    expect(String(shown.body)).toContain('Afmelden');
    expect(await api.db.selectFrom('notification_unsubscribes').selectAll().execute()).toHaveLength(0);
    const done = await api.call('POST', unsubscribe, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: 'List-Unsubscribe=One-Click',
    });
    expect(done.status).toBe(200);
    expect((await api.call('POST', `${unsubscribe}x`, { rawBody: '' })).status).toBe(400);
    shop.routesRef['/'] = withScripts('/app.js', '/later-1.js');
    const outsideBefore = mailsTo(outside).length;
    await scan();
    await waitFor(() => mailsTo(owner).length === 3);
    await settle();
    expect(mailsTo(outside).length).toBe(outsideBefore);
  });

  it('delivers a mail exactly once after the relay comes back', async () => {
    await relay.stop();
    shop.routesRef['/'] = withScripts('/app.js', '/later-1.js', '/later-2.js');
    const before = mailsTo(owner).length;
    await scan();
    await waitFor(
      async () =>
        (
          await api.db
            .selectFrom('notifications')
            .select('last_error')
            .where('status', '=', 'pending')
            .where('last_error', 'is not', null)
            .execute()
        ).length > 0,
    );
    await relay.start();
    await waitFor(() => mailsTo(owner).length === before + 1, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(mailsTo(owner).length).toBe(before + 1);
  });

  it('waits as a platform asks (429 Retry-After), and turns a channel off at 410 with one mail to its owners', async () => {
    chatAnswers['/slack'] = [
      { status: 429, headers: { 'retry-after': '1', 'content-type': 'text/plain' }, body: 'rate_limited' },
    ];
    const test = await call('POST', `/api/agent/notifications/channels/${slackId}/test`);
    expect(test.status, JSON.stringify(test.body)).toBe(200);
    expect(test.body.delivery).toMatchObject({ status: 'pending', attempts: 1, last_error: 'HTTP 429' });
    await waitFor(
      async () =>
        (await call('GET', '/api/agent/notifications/deliveries')).body.deliveries.some(
          (d: { id: string; status: string }) => d.id === test.body.delivery.id && d.status === 'sent',
        ),
      5_000,
    );
    const gone = await call('POST', '/api/agent/notifications/channels', {
      kind: 'teams',
      name: 'Oud',
      target: { url: chatUrl('/gone') },
    });
    chatAnswers['/gone'] = [{ status: 410, headers: { 'content-type': 'text/plain' }, body: 'gone' }];
    const ownersBefore = mailsTo(owner).length;
    const failed = await call('POST', `/api/agent/notifications/channels/${gone.body.channel.id}/test`);
    expect(failed.body.delivery).toMatchObject({ status: 'failed', last_error: 'HTTP 410' });
    const channel = (await call('GET', '/api/agent/notifications/channels')).body.channels.find(
      (c: { id: string }) => c.id === gone.body.channel.id,
    );
    expect(channel).toMatchObject({ enabled: false, disabled_reason: 'HTTP 410' });
    await waitFor(() => mailsTo(owner).length === ownersBefore + 1);
    const notice = mailsTo(owner).find((m) => m.text.includes('blijvende fout'));
    expect(notice!.headers.subject).toMatch(/^=\?UTF-8\?Q\?=5BBeveiligingsscan=5D_Meldingskanaal_/);
    expect(notice!.text).toMatch(/blijvende fout \(HTTP 410\)/);
    expect(notice!.headers['list-unsubscribe']).toBeUndefined();
  });

  it('refuses a channel that is not https, a token for a platform that takes none, and needs write_config', async () => {
    const plain = await call('POST', '/api/agent/notifications/channels', {
      kind: 'slack',
      name: 'x',
      target: { url: 'http://hooks.example/x' },
    });
    expect(plain.status).toBe(400);
    expect(plain.body.error).toMatch(/https/);
    const reader = await seedTenant(api.db, 'https://alleen-lezen.example/', { permissions: ['read_config'] });
    expect((await api.call('GET', '/api/agent/notifications/rules', { key: reader.key })).status).toBe(200);
    expect(
      (
        await api.call('POST', '/api/agent/notifications/rules', {
          key: reader.key,
          body: { name: 'x', min_severity: 'LOW' },
        })
      ).status,
    ).toBe(403);
    // Another tenant's channel is as absent as a missing one.
    expect((await api.call('DELETE', `/api/agent/notifications/channels/${slackId}`, { key: reader.key })).status).toBe(
      403,
    );
  });
});

describe('password reset', () => {
  let email: string;
  let password: string;
  const trpc = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${api.url}/trpc/${path}`, {
      method: 'POST',
      headers: { origin: api.url, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    email = `reset-${random(6).toLowerCase()}@winkel.test`;
    const user = await admin.createUser(
      { db: api.db, config: api.config },
      { tenant_id: tenant.tenantId, email, login: true },
    );
    password = String((user as { initial_password?: string }).initial_password);
  });

  it('answers alike for known and unknown addresses; only a known one gets a link, under PUBLIC_URL whatever the Host', async () => {
    const known = await trpc('account.requestPasswordReset', { email }, { 'x-forwarded-host': 'evil.test' });
    const unknown = await trpc('account.requestPasswordReset', { email: 'niemand@winkel.test' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(await known.text()).toBe(await unknown.text());
    await waitFor(() => mailsTo(email).length === 1);
    await settle();
    expect(mailsTo('niemand@winkel.test')).toHaveLength(0);
    expect(mailsTo(email)[0]!.text).toMatch(/https:\/\/scanner\.test\/wachtwoord-herstellen#[A-Za-z0-9_-]{43}/);
    expect(mailsTo(email)[0]!.headers['list-unsubscribe']).toBeUndefined();
  });

  it('works once, ends the old sessions, logs nobody in, and confirms by mail', async () => {
    const login = await trpc('account.logIn', { email, password });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const token = /wachtwoord-herstellen#([A-Za-z0-9_-]{43})/.exec(mailsTo(email)[0]!.text)![1]!;
    const next = 'een-nieuw-lang-wachtwoord';
    const [first, second] = await Promise.all([
      trpc('account.resetPassword', { token, password: next }),
      trpc('account.resetPassword', { token, password: `${next}-2` }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 400]);
    expect(first.headers.get('set-cookie') ?? second.headers.get('set-cookie')).toBeNull();
    const me = await fetch(`${api.url}/trpc/account.me`, { headers: { cookie } });
    expect(me.status).toBe(401);
    expect((await trpc('account.resetPassword', { token, password: next })).status).toBe(400);
    await waitFor(() => mailsTo(email).length === 2);
    expect(mailsTo(email)[1]!.text).toMatch(/Uw wachtwoord is gewijzigd/);
  });
});

describe('sign-up and invites with e-mail on', () => {
  const trpc = (path: string, body: unknown, cookie?: string) =>
    fetch(`${api.url}/trpc/${path}`, {
      method: 'POST',
      headers: { origin: api.url, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });

  it('answers alike for a new and a known address, logs nobody in, and activates by the link, once', async () => {
    const fresh = `nieuw-${random(6).toLowerCase()}@winkel.test`;
    const forNew = await trpc('account.signUp', {
      email: fresh,
      password: 'een-lang-wachtwoord',
      organisation: 'Nieuw',
    });
    const forKnown = await trpc('account.signUp', {
      email: owner,
      password: 'een-lang-wachtwoord',
      organisation: 'Dubbel',
    });
    expect(forNew.status).toBe(200);
    expect(forKnown.status).toBe(200);
    expect(forNew.headers.get('set-cookie')).toBeNull();
    expect(forKnown.headers.get('set-cookie')).toBeNull();
    expect(await forNew.text()).toBe(await forKnown.text());
    expect(await api.db.selectFrom('users').select('id').where('email', '=', fresh).executeTakeFirst()).toBeUndefined();
    await waitFor(
      () => mailsTo(fresh).length === 1 && mailsTo(owner).some((m) => m.text.includes('er bestaat er al een')),
    );
    const link = /https:\/\/scanner\.test(\/account\/bevestigen\?token=[A-Za-z0-9_-]+)/.exec(
      mailsTo(fresh)[0]!.text,
    )![1]!;
    expect((await api.call('GET', link)).status).toBe(200);
    expect(await api.db.selectFrom('users').select('id').where('email', '=', fresh).executeTakeFirst()).toBeUndefined();
    const post = { headers: { 'content-type': 'application/x-www-form-urlencoded' }, rawBody: 'x=1' };
    expect((await api.call('POST', link, post)).status).toBe(200);
    expect((await api.call('POST', link, post)).status).toBe(400);
    const login = await trpc('account.logIn', { email: fresh, password: 'een-lang-wachtwoord' });
    expect(login.status).toBe(200);
    // The new tenant starts with the Standaard rule too.
    const user = await api.db
      .selectFrom('users')
      .select('tenant_id')
      .where('email', '=', fresh)
      .executeTakeFirstOrThrow();
    const rules = await api.db
      .selectFrom('notification_rules')
      .select('name')
      .where('tenant_id', '=', user.tenant_id)
      .execute();
    expect(rules.map((r) => r.name)).toEqual(['Standaard']);
  });

  it('mails an invitation with its one-time link', async () => {
    const invited = `collega-${random(6).toLowerCase()}@winkel.test`;
    const bossEmail = `baas-${random(6).toLowerCase()}@winkel.test`;
    const boss = await admin.createUser(
      { db: api.db, config: api.config },
      { tenant_id: tenant.tenantId, email: bossEmail, role: 'owner', login: true },
    );
    const password = String(boss.initial_password);
    const session = await trpc('account.logIn', { email: bossEmail, password });
    const cookie = session.headers.get('set-cookie')!.split(';')[0]!;
    const invite = await trpc('team.invite', { email: invited, role: 'member' }, cookie);
    expect(invite.status).toBe(200);
    expect(((await invite.json()) as { result: { data: unknown } }).result.data).toMatchObject({ mailed: true });
    await waitFor(() => mailsTo(invited).length === 1);
    expect(mailsTo(invited)[0]!.text).toMatch(/https:\/\/scanner\.test\/uitnodiging#[A-Za-z0-9_-]{43}/);
  });
});
