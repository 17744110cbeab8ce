import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { claimScanJobs } from '../db/schedules.ts';
import { ScanScheduler } from '../services/scheduler.ts';
import { runAdmin } from '../bin/admin-cli.ts';
import { seedTenant, startApi, type Tenant, type TestApi } from './support/api.ts';
import { startSite, type FixtureSite } from './support/fixture-sites.ts';
import { rawSite } from './support/hostile-sites.ts';
import { startReceiver, waitFor } from './support/receiver.ts';

// Scheduled scans through the real worker loop (a short poll interval), on a real SQLite file.
const FAST = { SCHEDULER_POLL_INTERVAL: '50ms', SCAN_FAILURE_ALERT_AFTER: '2', WEBHOOK_POLL_INTERVAL: '50ms' };
const HOUR = 3_600_000;

let api: TestApi;
let site: FixtureSite;
beforeAll(async () => {
  site = await startSite({
    routes: { '/': { headers: { 'content-type': 'text/html' }, body: '<!doctype html><p>Winkel</p>' } },
  });
  api = await startApi(FAST);
});
afterAll(async () => {
  await api.close();
  await site.close();
});

const patch = (tenant: Tenant, body: unknown, siteId = tenant.siteId) =>
  api.call('PATCH', `/api/agent/sites/${siteId}`, { key: tenant.key, body });
const makeDue = (siteId: string, at = new Date(Date.now() - 1000).toISOString()) =>
  api.db.updateTable('sites').set({ next_scan_at: at }).where('id', '=', siteId).execute();
const jobs = (siteId: string) =>
  api.db.selectFrom('scan_jobs').selectAll().where('site_id', '=', siteId).orderBy('created_at').execute();
const scansOf = (siteId: string) =>
  api.db.selectFrom('scans').select(['id', 'trigger']).where('site_id', '=', siteId).execute();

describe('PATCH /api/agent/sites/{site_id}', () => {
  it('sets a schedule with a first scan within minutes, and turns it off with null', async () => {
    const tenant = await seedTenant(api.db, 'https://schema.example/');
    const on = await patch(tenant, { scan_interval_hours: 24 });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ id: tenant.siteId, scan_interval_hours: 24 });
    const wait = Date.parse(on.body.next_scan_at) - Date.now();
    expect(wait).toBeGreaterThan(-1000);
    expect(wait).toBeLessThanOrEqual(5 * 60_000);
    expect((await api.call('GET', `/api/agent/sites/${tenant.siteId}`, { key: tenant.key })).body).toMatchObject({
      scan_interval_hours: 24,
      next_scan_at: on.body.next_scan_at,
    });
    const off = await patch(tenant, { scan_interval_hours: null });
    expect(off.body).toMatchObject({ scan_interval_hours: null, next_scan_at: null });
  });

  it.each([[0], [169], [1.5], ['24'], [undefined]])('answers 400 for scan_interval_hours %j', async (value) => {
    const tenant = await seedTenant(api.db, 'https://schema.example/');
    const response = await patch(tenant, { scan_interval_hours: value });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/scan_interval_hours/);
  });

  it('needs write_config, keeps to the tenant and to the plan minimum', async () => {
    const reader = await seedTenant(api.db, 'https://schema.example/', { permissions: ['read_scans'] });
    expect((await patch(reader, { scan_interval_hours: 24 })).status).toBe(403);
    const owner = await seedTenant(api.db, 'https://schema.example/');
    const stranger = await seedTenant(api.db, 'https://vreemd.example/');
    const foreign = await patch(owner, { scan_interval_hours: 24 }, stranger.siteId);
    expect(foreign).toMatchObject({ status: 404, body: { error: 'Site niet gevonden.' } });
    const free = await seedTenant(api.db, 'https://gratis.example/', { plan: 'free' });
    const tooOften = await patch(free, { scan_interval_hours: 1 });
    expect(tooOften.status).toBe(400);
    expect(tooOften.body.error).toMatch(/minimaal elke 24 uur/);
    expect((await patch(free, { scan_interval_hours: 24 })).status).toBe(200);
  });
});

describe('the scheduler', () => {
  it('runs a due scan once, as an ordinary scan with trigger "schedule", and moves the next one an interval on', async () => {
    const tenant = await seedTenant(api.db, site.url);
    await patch(tenant, { scan_interval_hours: 6 });
    await makeDue(tenant.siteId);
    const [job] = await waitFor(async () => {
      const all = await jobs(tenant.siteId);
      return all.length > 0 && all[0]!.status !== 'pending' && all;
    });
    expect(job).toMatchObject({ status: 'completed', reason: null, scan_id: expect.any(String) });
    const listed = await api.call('GET', `/api/agent/scans?site_id=${tenant.siteId}`, { key: tenant.key });
    expect(listed.body.scans).toEqual([expect.objectContaining({ id: job!.scan_id, trigger: 'schedule' })]);
    expect((await api.call('GET', `/api/agent/scans/${job!.scan_id}`, { key: tenant.key })).body.trigger).toBe(
      'schedule',
    );
    const next = Date.parse(
      (await api.call('GET', `/api/agent/sites/${tenant.siteId}`, { key: tenant.key })).body.next_scan_at,
    );
    expect(next - Date.now()).toBeGreaterThan(5.9 * HOUR);
    const agentScan = await api.call('POST', '/api/agent/scan', { key: tenant.key, body: { site_id: tenant.siteId } });
    expect(
      (await api.call('GET', `/api/agent/scans/${agentScan.body.scan_id}`, { key: tenant.key })).body.trigger,
    ).toBe('api');
  });

  it('catches up after downtime with one scan per site, not one per missed interval', async () => {
    const tenant = await seedTenant(api.db, site.url);
    await patch(tenant, { scan_interval_hours: 1 });
    await makeDue(tenant.siteId, new Date(Date.now() - 10 * 24 * HOUR).toISOString());
    await waitFor(async () => (await jobs(tenant.siteId)).some((j) => j.status === 'completed'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await scansOf(tenant.siteId)).toHaveLength(1);
    expect(await jobs(tenant.siteId)).toHaveLength(1);
  });

  it('runs each due scan exactly once with several workers on one database', async () => {
    const tenant = await seedTenant(api.db, site.url);
    await patch(tenant, { scan_interval_hours: 2 });
    const workers = ['w1', 'w2', 'w3'].map(
      (workerId) =>
        new ScanScheduler(
          { db: api.db, config: api.config },
          { workerId, pollIntervalMs: 10, concurrency: 2, failureAlertAfter: 3, leaseMs: 120_000 },
          { info() {}, warn() {}, error() {} },
        ),
    );
    for (const w of workers) w.start();
    try {
      await makeDue(tenant.siteId);
      await waitFor(async () => (await jobs(tenant.siteId)).some((j) => j.status === 'completed'));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await scansOf(tenant.siteId)).toHaveLength(1);
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
  });

  it('splits runnable jobs between concurrent claimers: each job goes to exactly one', async () => {
    const tenant = await seedTenant(api.db, site.url);
    // Far in the future, so the API's own scheduler never sees these jobs.
    const due = '2999-01-01T00:00:00.000Z';
    const ids = Array.from({ length: 12 }, () => crypto.randomUUID());
    await api.db
      .insertInto('scan_jobs')
      .values(
        ids.map((id) => ({
          id,
          tenant_id: tenant.tenantId,
          site_id: tenant.siteId,
          status: 'pending' as const,
          due_at: due,
          run_after: due,
          claimed_by: null,
          attempts: 0,
          reason: null,
          scan_id: null,
          created_at: due,
          finished_at: null,
        })),
      )
      .execute();
    const claims = await Promise.all(
      ['a', 'b', 'c', 'd'].map((worker) =>
        claimScanJobs(api.db, worker, '2999-01-02T00:00:00.000Z', '2999-01-03T00:00:00.000Z', 4),
      ),
    );
    const claimed = claims.flat().map((job) => job.id);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.sort()).toEqual([...ids].sort());
    const stored = await jobs(tenant.siteId);
    for (const [index, worker] of ['a', 'b', 'c', 'd'].entries()) {
      for (const job of claims[index]!)
        expect(stored.find((row) => row.id === job.id)).toMatchObject({ claimed_by: worker, attempts: 1 });
    }
    await api.db.deleteFrom('scan_jobs').where('site_id', '=', tenant.siteId).execute();
  });

  it('takes over the job of a worker that died once its lease has expired', async () => {
    const tenant = await seedTenant(api.db, site.url);
    await patch(tenant, { scan_interval_hours: 2 });
    // A worker that is never going to run the job claims it with a lease that ends in a moment.
    const claimed = await waitFor(async () => {
      await makeDue(tenant.siteId);
      await api.db.deleteFrom('scan_jobs').where('site_id', '=', tenant.siteId).execute();
      await api.db
        .insertInto('scan_jobs')
        .values({
          id: crypto.randomUUID(),
          tenant_id: tenant.tenantId,
          site_id: tenant.siteId,
          status: 'pending',
          due_at: new Date().toISOString(),
          run_after: new Date(Date.now() - 1).toISOString(),
          claimed_by: null,
          attempts: 0,
          reason: null,
          scan_id: null,
          created_at: new Date().toISOString(),
          finished_at: null,
        })
        .execute();
      await api.db
        .updateTable('sites')
        .set({ next_scan_at: new Date(Date.now() + HOUR).toISOString() })
        .where('id', '=', tenant.siteId)
        .execute();
      const taken = await claimScanJobs(
        api.db,
        'dead-worker',
        new Date().toISOString(),
        new Date(Date.now() + 400).toISOString(),
        10,
      );
      return taken.some((j) => j.site_id === tenant.siteId) && taken;
    });
    expect(claimed).toBeTruthy();
    // Follow the dead worker's job itself: under load the live scheduler may have enqueued another
    // job from a read made while the loop above set the site due.
    const deadJobId = claimed && claimed.find((j) => j.site_id === tenant.siteId)!.id;
    const [job] = await waitFor(async () => {
      const taken = (await jobs(tenant.siteId)).filter((j) => j.id === deadJobId);
      return taken[0]?.status === 'completed' && taken;
    });
    expect(job).toMatchObject({ status: 'completed', attempts: 2, scan_id: expect.any(String) });
    // The taken-over job made its scan. (A scan the live scheduler may have run while the loop above
    // set the site due is another job's; "each due scan runs once" is scale-out.test.ts's.)
    expect((await scansOf(tenant.siteId)).map((s) => s.id)).toContain(job!.scan_id);
  });

  it('records a scan refused by the monthly quota as skipped with the reason, and retries next period', async () => {
    const tenant = await seedTenant(api.db, site.url);
    await patch(tenant, { scan_interval_hours: 2 });
    const period = new Date().toISOString().slice(0, 7);
    await api.db
      .insertInto('usage_counters')
      .values({ tenant_id: tenant.tenantId, period, metric: 'scans', count: 1_000 })
      .execute();
    await makeDue(tenant.siteId);
    const [job] = await waitFor(async () => {
      const all = await jobs(tenant.siteId);
      return all[0]?.status === 'skipped' && all;
    });
    expect(job!.reason).toMatch(/Quotum bereikt/);
    const next = new Date(
      (await api.call('GET', `/api/agent/sites/${tenant.siteId}`, { key: tenant.key })).body.next_scan_at,
    );
    expect(next.getTime()).toBeGreaterThanOrEqual(
      Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1),
    );
    expect(await scansOf(tenant.siteId)).toHaveLength(0);
  });

  it('records failures with the error, backs off, and sends scan_failed after the configured streak', async () => {
    const dead = await rawSite((socket) => socket.destroy());
    const url = dead.url;
    await dead.close();
    const tenant = await seedTenant(api.db, url);
    const receiver = await startReceiver();
    const hook = await api.call('POST', '/api/agent/webhooks', {
      key: tenant.key,
      body: { url: receiver.url, events: ['scan_failed'] },
    });
    expect(hook.status).toBe(201);
    await patch(tenant, { scan_interval_hours: 1 });
    for (const streak of [1, 2]) {
      await makeDue(tenant.siteId);
      await waitFor(async () => (await jobs(tenant.siteId)).filter((j) => j.status === 'failed').length === streak);
    }
    const failed = await jobs(tenant.siteId);
    expect(failed.every((j) => j.status === 'failed' && /bereikbaar|reageert|verbinding/i.test(j.reason ?? ''))).toBe(
      true,
    );
    const siteRow = await api.db
      .selectFrom('sites')
      .select(['scan_failures', 'next_scan_at'])
      .where('id', '=', tenant.siteId)
      .executeTakeFirstOrThrow();
    expect(siteRow.scan_failures).toBe(2);
    // The second failure waits two intervals.
    expect(Date.parse(siteRow.next_scan_at!) - Date.now()).toBeGreaterThan(1.9 * HOUR);
    const [delivered] = await waitFor(() => receiver.delivered().length > 0 && receiver.delivered());
    await receiver.close();
    expect(delivered!.json).toMatchObject({
      type: 'scan_failed',
      data: { site_id: tenant.siteId, consecutive_failures: 2, error: failed[0]!.reason },
    });
    const messages = await api.db
      .selectFrom('webhook_messages')
      .select('event_type')
      .where('tenant_id', '=', tenant.tenantId)
      .execute();
    expect(messages.map((m) => m.event_type)).toEqual(['scan_failed']);
  });
});

describe('a scheduled scan of a site that went down', () => {
  it('stores the scan with what did not run, and counts it as a failure of the schedule', async () => {
    const down = await startSite({
      routes: { '/': { headers: { 'content-type': 'text/html' }, body: '<!doctype html><p>Winkel</p>' } },
    });
    const tenant = await seedTenant(api.db, down.url);
    expect(
      (await api.call('POST', '/api/agent/scan', { key: tenant.key, body: { site_id: tenant.siteId } })).status,
    ).toBe(201);
    await down.close();
    // The port stays held, by a listener that drops every connection: a server another test starts
    // on a freed port would otherwise answer for the site that is down.
    const dropper = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => dropper.listen(down.port, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => dropper.close(() => resolve())));
    await patch(tenant, { scan_interval_hours: 1 });
    for (const streak of [1, 2]) {
      await makeDue(tenant.siteId);
      // The job ends after its schedule moved (one transaction): the next makeDue is not overwritten.
      await waitFor(async () => (await jobs(tenant.siteId)).filter((j) => j.status === 'failed').length === streak);
    }
    const failed = (await jobs(tenant.siteId)).filter((j) => j.status === 'failed');
    expect(failed.map((j) => j.reason)).toEqual([
      expect.stringMatching(/niet bereikbaar/),
      expect.stringMatching(/niet bereikbaar/),
    ]);
    // Each failed run stored its scan: the site's history says it was down, and what was not checked.
    const detail = await api.call('GET', `/api/agent/scans/${failed[1]!.scan_id}`, { key: tenant.key });
    expect(detail.body).toMatchObject({ trigger: 'schedule', unreachable: failed[1]!.reason, findings: [] });
    // Every test failed but the mail test, whose subject is the domain (an IP address has none).
    expect(
      detail.body.coverage.every((c: { test: string; status: string }) => c.status === 'failed' || c.test === 'mail'),
    ).toBe(true);
    const siteRow = await api.db
      .selectFrom('sites')
      .select('scan_failures')
      .where('id', '=', tenant.siteId)
      .executeTakeFirstOrThrow();
    expect(siteRow.scan_failures).toBe(2);
  });
});

describe('admin site schedule', () => {
  it('sets and clears a schedule with --every, and refuses what is not an interval', async () => {
    const tenant = await seedTenant(api.db, 'https://beheer.example/');
    const io = (out: string[], err: string[]) => ({
      stdout: { write: (t: string) => out.push(t) },
      stderr: { write: (t: string) => err.push(t) },
      env: { ...api.dbEnv, LOG_LEVEL: 'silent' },
    });
    const out: string[] = [];
    const err: string[] = [];
    expect(
      await runAdmin(['site', 'schedule', '--site', tenant.siteId, '--every', '24h', '--json'], io(out, err)),
    ).toBe(0);
    expect(JSON.parse(out[0]!)).toMatchObject({ id: tenant.siteId, scan_interval_hours: 24 });
    expect(
      await runAdmin(['site', 'schedule', '--site', tenant.siteId, '--every', 'off', '--json'], io(out, err)),
    ).toBe(0);
    expect(JSON.parse(out[1]!)).toMatchObject({ scan_interval_hours: null, next_scan_at: null });
    expect(await runAdmin(['site', 'schedule', '--site', tenant.siteId, '--every', 'daily'], io(out, err))).toBe(1);
    expect(await runAdmin(['site', 'schedule', '--site', tenant.siteId, '--every', '200h'], io(out, err))).toBe(1);
    expect(err.join('')).toMatch(/--every: .*\n.*--every: /);
    // The refused intervals changed nothing: the schedule is still off. (Not judged by the site's scan
    // jobs: the first scan of the 24h schedule is due within 0-5 minutes, so the scheduler, polling
    // every 50 ms, may rightly have run one before the schedule was switched off.)
    const site = await api.call('GET', `/api/agent/sites/${tenant.siteId}`, { key: tenant.key });
    expect(site.body).toMatchObject({ scan_interval_hours: null, next_scan_at: null });
  });
});
