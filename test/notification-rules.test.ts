import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDigestItems } from '../db/notifications.ts';
import { openMigratedDatabase, type DB } from '../db/database.ts';
import { loadConfig } from '../infra/config.ts';
import { renderChat, renderMail, type AlertBody } from '../services/notifications/message.ts';
import { foldAlerts, planScanNotifications, recordEvents } from '../services/notifications/plan.ts';
import { createRule } from '../services/notifications/rules.ts';
import { mySettings, setMySettings } from '../services/notifications/preferences.ts';
import { previewRules } from '../services/notifications/preview.ts';
import { recordScan } from '../db/scans.ts';
import { scanResult } from './support/scan-results.ts';
import { PERMISSIONS } from '../domain/vocabulary.ts';
import { sweepDigests } from '../services/notifications/worker.ts';
import { latestSlot, quietUntil } from '../services/notifications/zoned-time.ts';
import * as admin from '../services/admin.ts';
import { freshDatabase } from './support/database.ts';

/** A migrated database of its own for a describe block, and the settings of a service with e-mail on. */
const config = loadConfig({ LOG_LEVEL: 'silent', SMTP_URL: 'smtp://127.0.0.1:1', PUBLIC_URL: 'https://scanner.test' });
function migratedDatabase(name: string): { db: DB } {
  const state = {} as { db: DB; drop: () => Promise<void> };
  beforeAll(async () => {
    const fresh = await freshDatabase(name);
    state.db = await openMigratedDatabase(fresh.location);
    state.drop = fresh.drop;
  });
  afterAll(async () => {
    await state.db.destroy();
    await state.drop();
  });
  return state;
}

const AMSTERDAM = { from: '22:00', to: '07:00', zone: 'Europe/Amsterdam' };
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe('quiet hours and digest hours on the wall clock', () => {
  it('ends quiet hours at 07:00 local time on the nights of the March and October clock changes', () => {
    // 29 March 2026: 02:00 CET becomes 03:00 CEST; 07:00 CEST is 05:00 UTC.
    expect(iso(quietUntil(at('2026-03-28T22:30:00Z'), AMSTERDAM))).toBe('2026-03-29T05:00:00.000Z');
    // 25 October 2026: 03:00 CEST becomes 02:00 CET; 07:00 CET is 06:00 UTC.
    expect(iso(quietUntil(at('2026-10-24T21:30:00Z'), AMSTERDAM))).toBe('2026-10-25T06:00:00.000Z');
    expect(iso(quietUntil(at('2026-10-25T01:30:00Z'), AMSTERDAM))).toBe('2026-10-25T06:00:00.000Z');
    // Daytime, and the minute quiet hours end: not quiet.
    expect(quietUntil(at('2026-10-25T12:00:00Z'), AMSTERDAM)).toBeNull();
    expect(quietUntil(at('2026-11-30T06:00:00Z'), AMSTERDAM)).toBeNull();
    // A window within one day.
    expect(iso(quietUntil(at('2026-07-01T11:30:00Z'), { from: '12:00', to: '14:00', zone: 'UTC' }))).toBeNull();
    expect(iso(quietUntil(at('2026-07-01T12:30:00Z'), { from: '12:00', to: '14:00', zone: 'UTC' }))).toBe(
      '2026-07-01T14:00:00.000Z',
    );
  });

  it('finds the latest Monday 09:00 in Amsterdam across a clock change', () => {
    // Monday 30 March 2026 09:00 CEST = 07:00 UTC; the Monday before was CET (08:00 UTC).
    expect(iso(latestSlot(at('2026-03-30T07:30:00Z'), 'Europe/Amsterdam', 9, 1))).toBe('2026-03-30T07:00:00.000Z');
    expect(iso(latestSlot(at('2026-03-30T06:30:00Z'), 'Europe/Amsterdam', 9, 1))).toBe('2026-03-23T08:00:00.000Z');
    expect(iso(latestSlot(at('2026-10-26T08:00:00Z'), 'Europe/Amsterdam', 9, 1))).toBe('2026-10-26T08:00:00.000Z');
    // Daily at 18:00 in New York.
    expect(iso(latestSlot(at('2026-11-28T22:00:00Z'), 'America/New_York', 18, null))).toBe('2026-11-27T23:00:00.000Z');
  });
});

const alert = (lines: number, extra: Partial<AlertBody> = {}): AlertBody => ({
  kind: 'alert',
  site: { name: 'Winkel @channel <!channel>', host: 'winkel.nl', link: 'https://scanner.test/sites/1' },
  first: false,
  lines: Array.from({ length: lines }, (_, i) => ({
    title: `Bevinding ${i} & <b>`,
    severity: 'HIGH' as const,
    change: 'new',
  })),
  more: 0,
  counts: { new: lines, regressed: 0, resolved: 0, other: 0 },
  open: { CRITICAL: 0, HIGH: lines, MEDIUM: 0, LOW: 0 },
  scan_link: 'https://scanner.test/sites/1?scan=2',
  scanned_at: '2026-11-28T10:00:00.000Z',
  ...extra,
});

describe('rendering', () => {
  it('keeps mentions inert and escapes each format', () => {
    const body = alert(2);
    const slack = JSON.parse(renderChat('slack', body).body);
    expect(JSON.stringify(slack)).not.toContain('<!channel>');
    expect(slack.blocks[1].text.text).toContain('&lt;!channel&gt;');
    for (const kind of ['discord', 'mattermost', 'teams', 'google_chat', 'telegram'] as const)
      expect(renderChat(kind, body, { chatId: '1' }).body, kind).not.toMatch(/@channel/);
    expect(JSON.parse(renderChat('discord', body).body).allowed_mentions).toEqual({ parse: [] });
    expect(JSON.parse(renderChat('telegram', body, { chatId: '42' }).body)).toMatchObject({
      chat_id: '42',
      parse_mode: 'HTML',
    });
    expect(JSON.parse(renderChat('telegram', body, { chatId: '42' }).body).text).toContain('&amp; &lt;b&gt;');
    const mail = renderMail(body, 'https://scanner.test/meldingen/afmelden?token=x');
    expect(mail.html).toContain('Bevinding 0 &amp; &lt;b&gt;');
    expect(mail.html).not.toContain('<b>');
    const teams = JSON.parse(renderChat('teams', body).body);
    expect(teams.attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(renderChat('ntfy', body).headers?.title).toMatch(/^=\?UTF-8\?B\?/);
  });

  it("stays within each platform's limits however long the site's text", () => {
    const long = alert(10, {
      site: { name: 'W'.repeat(5_000), host: 'winkel.nl', link: 'https://scanner.test/sites/1' },
    });
    const slack = JSON.parse(renderChat('slack', long).body);
    expect(slack.blocks[0].text.text.length).toBeLessThanOrEqual(150);
    expect(slack.blocks[1].text.text.length).toBeLessThanOrEqual(3_000);
    const discord = JSON.parse(renderChat('discord', long).body);
    expect(discord.content.length).toBeLessThanOrEqual(2_000);
    expect(discord.embeds[0].title.length).toBeLessThanOrEqual(256);
    expect(discord.embeds[0].description.length).toBeLessThanOrEqual(4_096);
    expect(JSON.parse(renderChat('telegram', long, { chatId: '1' }).body).text.length).toBeLessThanOrEqual(4_096);
    expect(JSON.parse(renderChat('google_chat', long).body).text.length).toBeLessThanOrEqual(4_000);
    expect(renderChat('ntfy', long).body.length).toBeLessThanOrEqual(3_500);
  });

  it('folds waiting alerts into one: the top 10 lines, the rest counted', () => {
    const folded = foldAlerts(alert(8), alert(7));
    expect(folded.lines).toHaveLength(10);
    expect(folded.more).toBe(5);
    expect(folded.counts.new).toBe(15);
    expect(folded.folded).toBe(2);
  });
});

describe('the digest sweep', () => {
  const state = migratedDatabase('digest');

  it('sends the rest digest at Monday 09:00, one message per member, and nothing when it is empty', async () => {
    const { db } = state;
    const deps = { db, config };
    const tenant = await admin.createTenant(deps, { name: 'Digest', plan: 'pro' });
    await admin.createUser(deps, { tenant_id: tenant.id, email: 'eigenaar@winkel.test' });
    const rule = await db
      .selectFrom('notification_rules')
      .selectAll()
      .where('tenant_id', '=', tenant.id)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('notification_rules')
      .set({ last_rest_digest_at: '2026-11-23T08:00:00.000Z' })
      .where('id', '=', rule.id)
      .execute();
    const item = (title: string) => ({
      site: { id: 's1', name: 'Winkel', host: 'winkel.nl' },
      line: { title, severity: 'LOW', change: 'new' },
    });
    await insertDigestItems(db, [
      {
        tenant_id: tenant.id,
        rule_id: rule.id,
        part: 'rest',
        item: item('Referrer-Policy ontbreekt'),
        created_at: '2026-11-25T10:00:00.000Z',
      },
      {
        tenant_id: tenant.id,
        rule_id: rule.id,
        part: 'rest',
        item: item('CAA ontbreekt'),
        created_at: '2026-11-26T10:00:00.000Z',
      },
    ]);
    const digests = () => db.selectFrom('notifications').selectAll().where('category', '=', 'digest').execute();
    // The owner reads digests on Friday at 18:00 (UTC): the Monday digest waits for that.
    const owner = {
      tenantId: tenant.id,
      actor: { kind: 'user' as const, id: 'x' },
      permissions: [...PERMISSIONS],
      email: 'eigenaar@winkel.test',
      role: 'owner' as const,
      isStaff: false,
    };
    await setMySettings(deps, owner, {
      alerts: true,
      digest: true,
      quiet_hours: null,
      mutes: [],
      digest_at: { hour: 18, weekday: 5, zone: 'UTC' },
    });
    // Sunday evening: not yet.
    await sweepDigests(deps, at('2026-11-29T20:00:00Z'));
    expect(await digests()).toHaveLength(0);
    // Monday 09:00 in Amsterdam (08:00 UTC): one digest for the owner, both items.
    await sweepDigests(deps, at('2026-11-30T08:00:30Z'));
    const sent = await digests();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      address: 'eigenaar@winkel.test',
      status: 'pending',
      next_attempt_at: '2026-12-04T18:00:00.000Z',
    });
    expect(JSON.parse(sent[0]!.body)).toMatchObject({ kind: 'digest', total: 2 });
    // Twice at the same hour, or the next Monday with nothing waiting: nothing more.
    await sweepDigests(deps, at('2026-11-30T08:05:00Z'));
    await sweepDigests(deps, at('2026-12-07T08:00:30Z'));
    expect(await digests()).toHaveLength(1);
  });
});

describe('planning in quiet hours', () => {
  const state = migratedDatabase('quiet');

  it('defers HIGH to 07:00 as one message for what waited, and lets CRITICAL through', async () => {
    const { db } = state;
    const deps = { db, config };
    const tenant = await admin.createTenant(deps, { name: 'Nacht', plan: 'pro' });
    await admin.createUser(deps, { tenant_id: tenant.id, email: 'eigenaar@nacht.test' });
    const notice = (scanId: string, severity: 'HIGH' | 'CRITICAL', title: string) => ({
      scanId,
      scannedAt: '2026-11-28T23:30:00.000Z',
      first: false,
      site: { id: 's1', name: 'Winkel', url: 'https://winkel.nl/' },
      changes: [{ findingId: `f-${scanId}`, title, severity, event: 'new' as const }],
    });
    // 00:30 in Amsterdam: quiet under the Standaard rule.
    await planScanNotifications(db, deps, tenant.id, notice('a', 'HIGH', 'Eerste'), '2026-11-28T23:30:00.000Z');
    await planScanNotifications(db, deps, tenant.id, notice('b', 'HIGH', 'Tweede'), '2026-11-29T01:00:00.000Z');
    const waiting = await db.selectFrom('notifications').selectAll().where('tenant_id', '=', tenant.id).execute();
    expect(waiting).toHaveLength(1);
    expect(waiting[0]!.next_attempt_at).toBe('2026-11-29T06:00:00.000Z');
    const body = JSON.parse(waiting[0]!.body) as AlertBody;
    expect(body.lines.map((l) => l.title).sort()).toEqual(['Eerste', 'Tweede']);
    expect(body.folded).toBe(2);
    await planScanNotifications(db, deps, tenant.id, notice('c', 'CRITICAL', 'Kritiek'), '2026-11-29T01:30:00.000Z');
    const all = await db.selectFrom('notifications').selectAll().where('tenant_id', '=', tenant.id).execute();
    expect(all.find((n) => n.next_attempt_at === '2026-11-29T01:30:00.000Z')).toBeDefined();
  });
});

describe('monitoring events', () => {
  const state = migratedDatabase('events');

  it('sends a failing schedule at once under a rule that counts it, and leaves it to Standaard’s digest otherwise', async () => {
    const { db } = state;
    const deps = { db, config };
    const tenant = await admin.createTenant(deps, { name: 'Events', plan: 'pro' });
    await admin.createUser(deps, { tenant_id: tenant.id, email: 'eigenaar@events.test' });
    const site = await admin.createSite(deps, { tenant_id: tenant.id, name: 'Winkel', url: 'https://winkel.nl/' });
    const actor = {
      tenantId: tenant.id,
      actor: { kind: 'system' as const, id: 'test' },
      permissions: [...PERMISSIONS],
    };
    await createRule(deps, actor, {
      name: 'Storingen',
      site_ids: null,
      min_severity: 'HIGH',
      events: ['scan_failed'],
      mode: 'immediate',
      at: null,
      channel_ids: [],
      roles: ['owner'],
      quiet_hours: null,
      critical_bypasses_quiet: true,
      rest: null,
    });
    await db.transaction().execute((trx) =>
      recordEvents(
        trx,
        deps,
        tenant.id,
        [
          {
            type: 'scan_failed',
            data: {
              site_id: site.id,
              site_name: 'Winkel',
              site_url: site.url,
              error: 'x',
              consecutive_failures: 3,
              failed_at: '2026-11-28T12:00:00.000Z',
              next_scan_at: null,
            },
          },
        ],
        '2026-11-28T12:00:00.000Z',
      ),
    );
    const planned = await db.selectFrom('notifications').selectAll().where('tenant_id', '=', tenant.id).execute();
    expect(planned).toHaveLength(1);
    expect(planned[0]).toMatchObject({ address: 'eigenaar@events.test', category: 'alerts', status: 'pending' });
    expect(JSON.parse(planned[0]!.body).lines[0]).toMatchObject({
      title: 'Scan mislukt (3 keer na elkaar)',
      change: 'scan_failed',
    });
    const rest = await db
      .selectFrom('notification_digest_items')
      .selectAll()
      .where('tenant_id', '=', tenant.id)
      .execute();
    expect(rest.map((r) => r.part)).toEqual(['rest']);
    expect(
      await db.selectFrom('webhook_messages').selectAll().where('tenant_id', '=', tenant.id).execute(),
    ).toHaveLength(0);
  });
});

describe("a member's own settings", () => {
  const state = migratedDatabase('prefs');

  it('mutes a site until a date, defers to personal quiet hours, and turns alerts off', async () => {
    const { db } = state;
    const deps = { db, config };
    const tenant = await admin.createTenant(deps, { name: 'Eigen', plan: 'pro' });
    const user = await admin.createUser(deps, { tenant_id: tenant.id, email: 'eigenaar@eigen.test' });
    const site = await admin.createSite(deps, { tenant_id: tenant.id, name: 'Winkel', url: 'https://winkel.nl/' });
    // The Standaard rule without its quiet hours, so only the member's own apply.
    await db.updateTable('notification_rules').set({ quiet_hours: null }).where('tenant_id', '=', tenant.id).execute();
    const me = {
      tenantId: tenant.id,
      actor: { kind: 'user' as const, id: String(user.id) },
      permissions: [...PERMISSIONS],
      email: 'eigenaar@eigen.test',
      role: 'owner' as const,
      isStaff: false,
    };
    const plan = (scanId: string, now: string) =>
      planScanNotifications(
        db,
        deps,
        tenant.id,
        {
          scanId,
          scannedAt: now,
          first: false,
          site: { id: site.id, name: 'Winkel', url: site.url },
          changes: [{ findingId: `f-${scanId}`, title: 'Iets', severity: 'HIGH', event: 'new' }],
        },
        now,
      );
    const latest = async () =>
      (
        await db
          .selectFrom('notifications')
          .selectAll()
          .where('tenant_id', '=', tenant.id)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .execute()
      )[0]!;
    await setMySettings(deps, me, {
      alerts: true,
      digest: true,
      quiet_hours: { from: '12:00', to: '14:00', zone: 'UTC' },
      mutes: [{ site_id: site.id, until: '2026-12-01T00:00:00.000Z' }],
      digest_at: null,
    });
    expect(await mySettings(deps, me)).toMatchObject({ alerts: true, quiet_hours: { from: '12:00' } });
    await plan('a', '2026-11-28T12:30:00.000Z');
    expect(await latest()).toMatchObject({ status: 'suppressed', last_error: 'site gedempt tot 2026-12-01' });
    await setMySettings(deps, me, {
      alerts: true,
      digest: true,
      quiet_hours: { from: '12:00', to: '14:00', zone: 'UTC' },
      mutes: [],
      digest_at: null,
    });
    await plan('b', '2026-11-28T12:30:00.000Z');
    expect(await latest()).toMatchObject({ status: 'pending', next_attempt_at: '2026-11-28T14:00:00.000Z' });
    await setMySettings(deps, me, { alerts: false, digest: true, quiet_hours: null, mutes: [], digest_at: null });
    await plan('c', '2026-11-28T15:00:00.000Z');
    expect(await latest()).toMatchObject({ status: 'suppressed', last_error: 'afgemeld' });
    await expect(
      setMySettings(deps, me, {
        alerts: true,
        digest: true,
        quiet_hours: null,
        mutes: [{ site_id: '00000000-0000-4000-8000-000000000000', until: '2027-01-01T00:00:00.000Z' }],
        digest_at: null,
      }),
    ).rejects.toThrow(/bestaat niet/);
  });
});

describe('the preview of a rule', () => {
  const state = migratedDatabase('preview');

  it('says what the latest scan would have sent under each rule, and to whom', async () => {
    const { db } = state;
    const deps = { db, config };
    const tenant = await admin.createTenant(deps, { name: 'Voorbeeld', plan: 'pro' });
    await admin.createUser(deps, { tenant_id: tenant.id, email: 'eigenaar@voorbeeld.test' });
    const site = await admin.createSite(deps, { tenant_id: tenant.id, name: 'Winkel', url: 'https://winkel.nl/' });
    const result = scanResult('https://winkel.nl/', [
      ['session_cookie_missing_secure', 'https://winkel.nl/'],
      ['referrer_policy_missing', 'https://winkel.nl/'],
    ]);
    await db.transaction().execute((trx) => recordScan(trx, tenant.id, site.id, result, 'api'));
    const actor = {
      tenantId: tenant.id,
      actor: { kind: 'system' as const, id: 'test' },
      permissions: [...PERMISSIONS],
    };
    const { previews } = await previewRules({ db, config }, actor);
    expect(previews).toHaveLength(1);
    expect(previews[0]!.messages).toEqual([
      {
        site_name: 'Winkel',
        lines: [{ title: expect.stringMatching(/Sessiecookie/), severity: 'HIGH', change: 'new' }],
        more: 0,
      },
    ]);
    expect(previews[0]!.recipients).toEqual([{ to: 'eigenaar@voorbeeld.test', kind: 'email', suppressed: null }]);
  });
});
