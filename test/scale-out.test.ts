import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigratedDatabase, type DB } from '../db/database.ts';
import * as admin from '../services/admin.ts';
import { seedTenant, type Tenant, TEST_CONFIG } from './support/api.ts';
import { startSite, type FixtureSite } from './support/fixture-sites.ts';
import { listeningPort } from './support/net.ts';
import { createDatabase, postgresAvailable, startPostgres, type TestPostgres } from './support/postgres.ts';
import { startReceiver, waitFor } from './support/receiver.ts';
import { requireRedisOrSkip, startRedis, type TestRedis } from './support/redis.ts';
import { killWithThisProcess } from './support/orphan-guard.ts';

// Two API instances (WORKERS=false) and a separate worker process on one PostgreSQL and one Redis,
// as "Running several instances" in the README describes.
const ready = requireRedisOrSkip() && (postgresAvailable() || Boolean(process.env.CI));

describe.skipIf(!ready)('several instances on PostgreSQL and Redis', () => {
  let postgres: TestPostgres;
  let redis: TestRedis;
  let site: FixtureSite;
  let db: DB;
  let env: NodeJS.ProcessEnv;
  const apis: Array<{ child: ChildProcess; base: string }> = [];
  let worker: ChildProcess;

  const startProcess = (script: string, extra: Record<string, string> = {}) =>
    killWithThisProcess(
      spawn(process.execPath, [script], {
        env: { ...env, ...extra },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
  const startApiProcess = async () => {
    const child = startProcess('dist/server/main.js', { WORKERS: 'false' });
    return { child, base: `http://127.0.0.1:${await listeningPort(child)}` };
  };
  const startWorker = () => {
    worker = startProcess('dist/server/worker.js');
  };
  const call = (i: number, tenant: Tenant, method: string, path: string, body?: unknown) =>
    fetch(`${apis[i % 2]!.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    [postgres, redis, site] = await Promise.all([
      startPostgres(),
      startRedis(),
      startSite({
        routes: { '/': { headers: { 'content-type': 'text/html' }, body: '<!doctype html><p>Winkel</p>' } },
      }),
    ]);
    const database = await createDatabase(postgres.url);
    env = {
      ...process.env,
      DATABASE_URL: database.url,
      SECRETS_KEY: Buffer.alloc(32, 9).toString('base64'),
      REDIS_URL: redis.url,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      SCANNER_ALLOW_PRIVATE_TARGETS: 'true',
      IP_RATE_LIMIT_PER_MINUTE: '100000',
      WEBHOOK_POLL_INTERVAL: '100ms',
      WEBHOOK_RETRY_SCHEDULE: '300ms,300ms,300ms,300ms',
      WEBHOOK_LEASE: '2s',
      SCHEDULER_POLL_INTERVAL: '100ms',
    };
    db = await openMigratedDatabase(database.url);
    apis.push(await startApiProcess(), await startApiProcess());
    startWorker();
  }, 60_000);

  afterAll(async () => {
    worker?.kill('SIGKILL');
    for (const api of apis) api.child.kill('SIGKILL');
    await db?.destroy();
    await Promise.all([postgres?.stop(), redis?.stop(), site?.close()]);
  });

  it("holds a key's per-minute limit over both instances together", async () => {
    const tenant = await seedTenant(db, 'https://limiet.example/', { rateLimit: 10 });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await call(i, tenant, 'GET', '/api/agent/sites')).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
  });

  it('delivers every webhook message to each subscribed endpoint exactly once', async () => {
    const tenant = await seedTenant(db, site.url);
    const [first, second] = await Promise.all([startReceiver(), startReceiver()]);
    try {
      for (const receiver of [first, second])
        expect(
          (await call(0, tenant, 'POST', '/api/agent/webhooks', { url: receiver.url, events: ['scan_completed'] }))
            .status,
        ).toBe(201);
      const scans = await Promise.all(
        [0, 1, 2, 3, 4, 5].map(
          async (i) =>
            (
              (await (await call(i, tenant, 'POST', '/api/agent/scan', { site_id: tenant.siteId })).json()) as {
                scan_id: string;
              }
            ).scan_id,
        ),
      );
      for (const receiver of [first, second]) {
        await waitFor(() => receiver.delivered().length >= scans.length);
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      for (const receiver of [first, second]) {
        const ids = receiver.received.map((r) => r.headers['webhook-id']);
        expect(ids).toHaveLength(scans.length);
        expect(new Set(ids).size).toBe(scans.length);
        expect(receiver.received.map((r) => r.json.data.scan_id).sort()).toEqual([...scans].sort());
      }
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('runs each due scheduled scan once', async () => {
    const tenant = await seedTenant(db, site.url);
    const siteIds = [
      tenant.siteId,
      (
        await admin.createSite(
          { db: db, config: TEST_CONFIG },
          {
            tenant_id: tenant.tenantId,
            name: 'Twee',
            url: site.url,
          },
        )
      ).id,
      (
        await admin.createSite(
          { db: db, config: TEST_CONFIG },
          {
            tenant_id: tenant.tenantId,
            name: 'Drie',
            url: site.url,
          },
        )
      ).id,
    ];
    for (const [i, siteId] of siteIds.entries())
      expect((await call(i, tenant, 'PATCH', `/api/agent/sites/${siteId}`, { scan_interval_hours: 12 })).status).toBe(
        200,
      );
    await db
      .updateTable('sites')
      .set({ next_scan_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', 'in', siteIds)
      .execute();
    const scheduled = () =>
      db
        .selectFrom('scans')
        .select(['site_id'])
        .where('tenant_id', '=', tenant.tenantId)
        .where('trigger', '=', 'schedule')
        .execute();
    await waitFor(async () => (await scheduled()).length >= 3);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await scheduled()).map((s) => s.site_id).sort()).toEqual([...siteIds].sort());
  });

  it('finishes the work of a worker killed mid-delivery once a restarted worker takes its lease over', async () => {
    const tenant = await seedTenant(db, site.url);
    const receiver = await startReceiver();
    try {
      const hook = (await (
        await call(1, tenant, 'POST', '/api/agent/webhooks', { url: receiver.url, events: ['scan_completed'] })
      ).json()) as { webhook: { id: string } };
      // The receiver answers slowly: the worker is killed while it waits for the answer.
      receiver.delay(1_500);
      const scan = (await (await call(0, tenant, 'POST', '/api/agent/scan', { site_id: tenant.siteId })).json()) as {
        scan_id: string;
      };
      const delivery = () =>
        db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', hook.webhook.id).executeTakeFirst();
      await waitFor(async () => (await delivery())?.claimed_by);
      await new Promise((resolve) => setTimeout(resolve, 300));
      worker.kill('SIGKILL');
      await new Promise((resolve) => worker.once('exit', resolve));
      receiver.delay(0);
      startWorker();
      await waitFor(async () => (await delivery())?.status === 'delivered');
      expect(receiver.delivered().map((r) => r.json.data.scan_id)).toContain(scan.scan_id);
      // The attempt in flight at the kill may also have reached the receiver: with the same webhook-id.
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
      const attempts = await db
        .selectFrom('webhook_attempts')
        .select('status_code')
        .where('webhook_id', '=', hook.webhook.id)
        .execute();
      expect(attempts.filter((a) => a.status_code === 204)).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});
