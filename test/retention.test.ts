import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueEvents } from '../db/outbox.ts';
import { recordScan } from '../db/scans.ts';
import { createSite } from '../services/admin.ts';
import type { FindingType } from '../scanner/catalog/index.ts';
import { runAdmin } from '../bin/admin-cli.ts';
import { prune, prunable } from '../services/retention.ts';
import { seedTenant, startApi, type Tenant, type TestApi } from './support/api.ts';
import { startReceiver, waitFor, type Receiver } from './support/receiver.ts';
import { scanResult } from './support/scan-results.ts';

// Retention on both engines: old scans go in batches, but never a site's latest scan or the scan a
// finding was last seen in; finished outbox messages and old delivery attempts go after 30 days;
// the counts and the scan list's pagination stay right.

const DAY = 86_400_000;
let api: TestApi;
let tenant: Tenant;
let receiver: Receiver;
beforeAll(async () => {
  [api, receiver] = await Promise.all([startApi(), startReceiver()]);
  tenant = await seedTenant(api.db, 'https://voorbeeld.nl/');
});
afterAll(async () => Promise.all([api.close(), receiver.close()]));

const result = (daysAgo: number, findings: Array<[FindingType, string]>) =>
  scanResult('https://voorbeeld.nl/', findings, new Date(Date.now() - daysAgo * DAY));
const record = (siteId: string, scan: ReturnType<typeof scanResult>) =>
  api.db.transaction().execute((trx) => recordScan(trx, tenant.tenantId, siteId, scan, 'api'));
const scansOf = async (params: Record<string, string> = {}) =>
  (await api.call('GET', `/api/agent/scans?${new URLSearchParams({ limit: '100', ...params })}`, { key: tenant.key }))
    .body;

describe('retention', () => {
  it("prunes old scans in batches but keeps every site's latest scan and every finding's scan; counts and pagination stay right", async () => {
    const siteA = tenant.siteId;
    const siteB = (
      await createSite(
        { db: api.db, config: api.config },
        {
          tenant_id: tenant.tenantId,
          name: 'Oude site',
          url: 'https://oud.voorbeeld.nl/',
        },
      )
    ).id;
    // Site A: a finding last seen 500 days ago, 250 more old scans, a recent scan. Site B: one scan, 600 days ago.
    const kept1 = await record(
      siteA,
      result(500, [
        ['exposed_git_config', 'https://voorbeeld.nl/.git/config'],
        ['csp_missing', 'https://voorbeeld.nl/'],
      ]),
    );
    for (let i = 0; i < 250; i++)
      await record(siteA, result(450 - i / 100, [['csp_missing', 'https://voorbeeld.nl/']]));
    const latestA = await record(siteA, result(10, [['csp_missing', 'https://voorbeeld.nl/']]));
    const latestB = await record(siteB, result(600, [['hsts_missing', 'https://oud.voorbeeld.nl/']]));
    expect((await scansOf()).pagination.total).toBe(253);

    expect(await prunable({ db: api.db, config: api.config })).toMatchObject({ scans: 250 });
    let stdout = '';
    const dry = await runAdmin(['prune', '--dry-run', '--json'], {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: () => true },
      env: { ...process.env, ...api.dbEnv },
    });
    expect(dry).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ dry_run: true, scans: 250 });
    expect((await scansOf()).pagination.total).toBe(253);

    expect(await prune({ db: api.db, config: api.config })).toMatchObject({ scans: 250 });
    const after = await scansOf();
    expect(after.scans.map((s: { id: string }) => s.id).sort()).toEqual(
      [kept1.scan.id, latestA.scan.id, latestB.scan.id].sort(),
    );
    expect(after.pagination).toMatchObject({ total: 3, has_more: false });
    const page = await scansOf({ limit: '2' });
    expect(page.pagination).toMatchObject({ total: 3, has_more: true });
    for (const grade of new Set(after.scans.map((s: { grade: string }) => s.grade))) {
      const filtered = await scansOf({ grade: String(grade) });
      expect(filtered.pagination.total).toBe(filtered.scans.length);
    }
    expect((await scansOf({ site_id: siteA })).pagination.total).toBe(2);
    // The finding last seen in the oldest scan still opens with it.
    const findings = (await api.call('GET', '/api/agent/findings?limit=200', { key: tenant.key })).body.findings;
    for (const finding of findings)
      expect((await api.call('GET', `/api/agent/scans/${finding.scan_id}`, { key: tenant.key })).status).toBe(200);
    expect(await prune({ db: api.db, config: api.config })).toEqual({
      scans: 0,
      webhook_messages: 0,
      webhook_attempts: 0,
    });
  });

  it('prunes finished outbox messages and delivery attempts after 30 days, never a pending one', async () => {
    await api.call('POST', '/api/agent/webhooks', {
      key: tenant.key,
      body: { url: receiver.url, events: ['scan_completed'] },
    });
    await api.db
      .transaction()
      .execute((trx) =>
        enqueueEvents(
          trx,
          tenant.tenantId,
          [{ type: 'scan_completed', data: { scan_id: 'x', site_id: tenant.siteId } }],
          new Date().toISOString(),
        ),
      );
    await waitFor(() => receiver.delivered().length >= 1);
    const now = new Date(Date.now() + 31 * DAY);
    receiver.respondWith(500);
    await api.db
      .transaction()
      .execute((trx) =>
        enqueueEvents(
          trx,
          tenant.tenantId,
          [{ type: 'scan_completed', data: { scan_id: 'y', site_id: tenant.siteId } }],
          new Date().toISOString(),
        ),
      );
    // The failed attempt is logged once the answer is in.
    await waitFor(
      async () =>
        Number(
          (
            await api.db
              .selectFrom('webhook_attempts')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ) >= 2,
    );
    const counts = await prunable({ db: api.db, config: api.config }, now);
    expect(counts.webhook_messages).toBe(1);
    expect(counts.webhook_attempts).toBeGreaterThanOrEqual(2);
    expect(await prune({ db: api.db, config: api.config }, now)).toMatchObject({ webhook_messages: 1 });
    const left = await api.db.selectFrom('webhook_deliveries').select(['status']).execute();
    expect(left.map((d) => d.status)).toEqual(['pending']);
  });
});
