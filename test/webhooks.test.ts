import type { WebhookEvent } from '../domain/vocabulary.ts';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as admin from '../services/admin.ts';
import { seedTenant, startApi, type Tenant, type TestApi } from './support/api.ts';
import type { FixtureSite } from './support/fixture-sites.ts';
import { startReceiver, waitFor, type Receiver } from './support/receiver.ts';
import { leakyWordPressSite } from './support/sites.ts';

// A short lease: a delivery claimed by a killed process is taken over within a second.
const FAST = {
  WEBHOOK_RETRY_SCHEDULE: '300ms,300ms,300ms,300ms',
  WEBHOOK_POLL_INTERVAL: '50ms',
  WEBHOOK_DISABLE_AFTER: '50',
  WEBHOOK_LEASE: '1s',
};

let api: TestApi;
let site: FixtureSite;
beforeAll(async () => {
  api = await startApi(FAST);
  site = await leakyWordPressSite();
});
afterAll(async () => {
  await site.close();
  await api.close();
});

async function register(tenant: Tenant, receiver: Receiver, events: string[], testApi = api) {
  const { status, body } = await testApi.call('POST', '/api/agent/webhooks', {
    key: tenant.key,
    body: { url: receiver.url, events },
  });
  expect(status).toBe(201);
  return body.webhook as { id: string; secret: string };
}
const scan = async (tenant: Tenant) =>
  (await api.call('POST', '/api/agent/scan', { key: tenant.key, body: { site_id: tenant.siteId } })).body;
const ofType = (receiver: Receiver, type: string) => receiver.delivered().filter((r) => r.json.type === type);

describe('event delivery', () => {
  let tenant: Tenant;
  let all: Receiver;
  let scansOnly: Receiver;
  let strangerReceiver: Receiver;
  let allHook: { id: string; secret: string };
  let firstScan: Record<string, any>;

  beforeAll(async () => {
    tenant = await seedTenant(api.db, site.url);
    const stranger = await seedTenant(api.db, 'https://stranger.example/');
    [all, scansOnly, strangerReceiver] = await Promise.all([startReceiver(), startReceiver(), startReceiver()]);
    allHook = await register(tenant, all, ['scan_completed', 'finding_new', 'finding_resolved', 'suggestion_reviewed']);
    await register(tenant, scansOnly, ['scan_completed']);
    await register(stranger, strangerReceiver, [
      'scan_completed',
      'finding_new',
      'finding_resolved',
      'suggestion_reviewed',
    ]);
    firstScan = await scan(tenant);
    await waitFor(
      () =>
        ofType(all, 'finding_new').length === firstScan.findings_count && ofType(all, 'scan_completed').length === 1,
    );
  });
  afterAll(() => Promise.all([all.close(), scansOnly.close(), strangerReceiver.close()]));

  it('signs every message so the standardwebhooks package verifies it', () => {
    const verifier = new Webhook(allHook.secret);
    for (const message of all.delivered()) {
      expect(verifier.verify(message.body, message.headers)).toEqual(message.json);
      expect(message.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(message.headers['webhook-signature']).toMatch(/^v1,/);
    }
    const forged = all.delivered()[0]!;
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(forged.body, forged.headers),
    ).toThrow();
  });

  it('sends scan_completed with the scan create object and one finding_new per finding', () => {
    const [completed] = ofType(all, 'scan_completed');
    expect(completed!.json).toEqual({
      type: 'scan_completed',
      timestamp: expect.stringMatching(/Z$/),
      // The spec's scan object, plus how the scan changed the site's findings (a first scan: all new).
      data: {
        ...firstScan,
        changes: {
          new: firstScan.findings_count,
          regressed: 0,
          resolved: 0,
          severity_changed: 0,
          escalated: 0,
          unverified: 0,
        },
        // A site at an IP address has no mail domain: the mail test says so.
        mail: { score: null, status: 'not_applicable' },
      },
    });
    const findings = ofType(all, 'finding_new').map((m) => m.json.data);
    expect(new Set(findings.map((f) => f.id)).size).toBe(firstScan.findings_count);
    expect(findings[0]).toMatchObject({
      scan_id: firstScan.scan_id,
      site_id: tenant.siteId,
      status: 'OPEN',
      site_url: site.url,
    });
    expect(new Set(all.delivered().map((m) => m.headers['webhook-id'])).size).toBe(all.delivered().length);
  });

  it("sends only subscribed events, and only to the tenant's own webhooks", () => {
    expect(scansOnly.delivered().map((m) => m.json.type)).toEqual(['scan_completed']);
    expect(strangerReceiver.received).toEqual([]);
  });

  it('sends no finding_new for a rescan that sees the same issues', async () => {
    // The outbox is written in the scan's transaction, so once the scan answered it is final.
    const queued = async (type: WebhookEvent) =>
      Number(
        (
          await api.db
            .selectFrom('webhook_messages')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('tenant_id', '=', tenant.tenantId)
            .where('event_type', '=', type)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const [findingsBefore, scansBefore] = [await queued('finding_new'), await queued('scan_completed')];
    await scan(tenant);
    expect(await queued('scan_completed')).toBe(scansBefore + 1);
    expect(await queued('finding_new')).toBe(findingsBefore);
    await waitFor(() => ofType(all, 'scan_completed').length === 2);
    expect(ofType(all, 'finding_new')).toHaveLength(findingsBefore);
  });

  it('sends finding_resolved when a fixed exposure is no longer seen', async () => {
    const env = site.routesRef['/.env']!;
    delete site.routesRef['/.env'];
    try {
      await scan(tenant);
      const [resolved] = await waitFor(() => {
        const found = ofType(all, 'finding_resolved');
        return found.length > 0 && found;
      });
      expect(resolved!.json.data).toMatchObject({ finding_type: 'exposed_env_file', status: 'RESOLVED' });
    } finally {
      site.routesRef['/.env'] = env;
    }
  });

  it('sends suggestion_reviewed with the reviewed list item', async () => {
    const created = (
      await api.call('POST', '/api/agent/suggestions', {
        key: tenant.key,
        body: { type: 'code_fix', title: 'Verwijder .env', description: 'Haal .env uit de webroot' },
      })
    ).body.suggestion;
    await admin.review(
      { db: api.db, config: api.config },
      {
        suggestion_id: created.id,
        status: 'rejected',
        notes: 'Niet nodig',
      },
    );
    const [reviewed] = await waitFor(
      () => ofType(all, 'suggestion_reviewed').length > 0 && ofType(all, 'suggestion_reviewed'),
    );
    expect(reviewed!.json.data).toMatchObject({
      id: created.id,
      status: 'rejected',
      review_notes: 'Niet nodig',
      reviewed_at: expect.any(String),
    });
  });
});

describe('retries, failure counting and disabling', () => {
  const webhookOf = async (tenant: Tenant, id: string) =>
    (await api.call('GET', '/api/agent/webhooks', { key: tenant.key })).body.webhooks.find(
      (w: { id: string }) => w.id === id,
    );

  it('retries a failing receiver with the same webhook-id and resets failure_count after a success', async () => {
    const tenant = await seedTenant(api.db, site.url);
    const receiver = await startReceiver();
    try {
      receiver.respondWith(500, 500, 204);
      const hook = await register(tenant, receiver, ['scan_completed']);
      await scan(tenant);
      await waitFor(() => receiver.received.length >= 2);
      const counted = await webhookOf(tenant, hook.id);
      expect(counted.failure_count).toBeGreaterThanOrEqual(1);
      expect(counted.last_triggered_at).toMatch(/Z$/);
      await waitFor(() => receiver.delivered().length === 1);
      expect(receiver.received.map((r) => r.status)).toEqual([500, 500, 204]);
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
      await waitFor(async () => (await webhookOf(tenant, hook.id)).failure_count === 0);
      const attempts = (
        await admin.deliveriesOfWebhook({ db: api.db, config: api.config }, { webhook_id: hook.id })
      ).map((a) => a.status_code);
      expect(attempts.sort()).toEqual([204, 500, 500]);
    } finally {
      await receiver.close();
    }
  });

  it('treats a redirect as a failure and disables the webhook on 410 Gone', async () => {
    const tenant = await seedTenant(api.db, site.url);
    const receiver = await startReceiver();
    try {
      receiver.respondWith(302, 410);
      const hook = await register(tenant, receiver, ['scan_completed']);
      await scan(tenant);
      await waitFor(async () => (await webhookOf(tenant, hook.id)).enabled === false);
      expect(receiver.received.map((r) => r.status)).toEqual([302, 410]);
      await scan(tenant);
      // A disabled webhook gets no delivery rows at all, so nothing can arrive later either.
      const pending = await api.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('webhook_id', '=', hook.id)
        .where('status', '=', 'pending')
        .execute();
      expect(pending).toEqual([]);
      expect(receiver.received).toHaveLength(2);
      await admin.enableWebhook({ db: api.db, config: api.config }, { webhook_id: hook.id });
      expect(await webhookOf(tenant, hook.id)).toMatchObject({ enabled: true, failure_count: 0 });
    } finally {
      await receiver.close();
    }
  });

  it('disables a webhook after WEBHOOK_DISABLE_AFTER consecutive failures', async () => {
    const strict = await startApi({ ...FAST, WEBHOOK_DISABLE_AFTER: '3' });
    const receiver = await startReceiver();
    try {
      receiver.respondWith(503);
      const tenant = await seedTenant(strict.db, site.url);
      const hook = await register(tenant, receiver, ['scan_completed'], strict);
      await strict.call('POST', '/api/agent/scan', { key: tenant.key, body: { site_id: tenant.siteId } });
      const disabled = await waitFor(async () => {
        const webhook = (await strict.call('GET', '/api/agent/webhooks', { key: tenant.key })).body.webhooks[0];
        return webhook.enabled === false && webhook;
      });
      expect(disabled).toMatchObject({ id: hook.id, failure_count: 3 });
      expect(receiver.received).toHaveLength(3);
    } finally {
      await receiver.close();
      await strict.close();
    }
  });

  it('does not let a slow receiver delay another one', async () => {
    const tenant = await seedTenant(api.db, site.url);
    const [slow, fast] = await Promise.all([startReceiver(), startReceiver()]);
    try {
      slow.delay(1_500);
      await register(tenant, slow, ['scan_completed']);
      await register(tenant, fast, ['scan_completed']);
      await scan(tenant);
      await waitFor(() => fast.delivered().length === 1);
      expect(slow.received).toHaveLength(0);
      await waitFor(() => slow.delivered().length === 1);
    } finally {
      await Promise.all([slow.close(), fast.close()]);
    }
  });
});
