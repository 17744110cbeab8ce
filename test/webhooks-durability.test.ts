import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigratedDatabase } from '../db/database.ts';
import { seedTenant } from './support/api.ts';
import type { FixtureSite } from './support/fixture-sites.ts';
import { listeningPort } from './support/net.ts';
import { startReceiver, waitFor } from './support/receiver.ts';
import { leakyWordPressSite } from './support/sites.ts';
import { killWithThisProcess } from './support/orphan-guard.ts';

// Processes of their own on their own SQLite files, whichever engine the run tests: these run once,
// apart from test/webhooks.test.ts, which runs on both engines. They run the build `npm start` and
// `npm run worker` run (made once by the test setup), not the sources through tsx.

// A short lease: a delivery claimed by a killed process is taken over within a second.
const FAST = {
  WEBHOOK_RETRY_SCHEDULE: '300ms,300ms,300ms,300ms',
  WEBHOOK_POLL_INTERVAL: '50ms',
  WEBHOOK_DISABLE_AFTER: '50',
  WEBHOOK_LEASE: '1s',
};

let site: FixtureSite;
beforeAll(async () => {
  site = await leakyWordPressSite();
});
afterAll(() => site.close());

describe('durability', () => {
  async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
    const child = killWithThisProcess(
      spawn(process.execPath, ['dist/server/main.js'], {
        env: { ...process.env, ...env, PORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    return { child, base: `http://127.0.0.1:${await listeningPort(child)}` };
  }

  it('delivers a message after the service was killed with SIGKILL while the receiver was down', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scanner-crash-'));
    const env = {
      ...FAST,
      DATABASE_PATH: join(dir, 'crash.db'),
      SCANNER_ALLOW_PRIVATE_TARGETS: 'true',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
    };
    // The receiver binds its port now and goes down; it comes back on the same port later.
    const down = await startReceiver();
    const receiverPort = down.port;
    await down.close();
    const db = await openMigratedDatabase(env.DATABASE_PATH);
    const tenant = await seedTenant(db, site.url);
    await db.destroy();
    let server = await startServer(env);
    const headers = { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' };
    try {
      const post = async (path: string, body: unknown) =>
        (
          await fetch(`${server.base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
        ).json() as Promise<any>;
      const hook = await post('/api/agent/webhooks', {
        url: `https://127.0.0.1:${receiverPort}/hook`,
        events: ['scan_completed'],
      });
      const created = await post('/api/agent/scan', { site_id: tenant.siteId });
      server.child.kill('SIGKILL');
      await new Promise((resolve) => server.child.once('exit', resolve));

      const receiver = await startReceiver(receiverPort);
      try {
        server = await startServer(env);
        const [message] = await waitFor(() => receiver.delivered().length > 0 && receiver.delivered());
        expect(new Webhook(hook.webhook.secret).verify(message!.body, message!.headers)).toMatchObject({
          type: 'scan_completed',
          data: { scan_id: created.scan_id },
        });
      } finally {
        await receiver.close();
      }
    } finally {
      server.child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('lets an API-only instance (WORKERS=false) queue and a separate `npm run worker` process deliver', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scanner-worker-'));
    const env = {
      ...FAST,
      DATABASE_PATH: join(dir, 'split.db'),
      SCANNER_ALLOW_PRIVATE_TARGETS: 'true',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
    };
    const db = await openMigratedDatabase(env.DATABASE_PATH);
    const tenant = await seedTenant(db, site.url);
    await db.destroy();
    const receiver = await startReceiver();
    const server = await startServer({ ...env, WORKERS: 'false' });
    let worker: ChildProcess | null = null;
    try {
      const headers = { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' };
      const post = async (path: string, body: unknown) =>
        (
          await fetch(`${server.base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
        ).json() as Promise<any>;
      const hook = await post('/api/agent/webhooks', { url: receiver.url, events: ['scan_completed'] });
      const created = await post('/api/agent/scan', { site_id: tenant.siteId });
      // Ten poll intervals without a worker: nothing goes out.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.received).toEqual([]);
      worker = killWithThisProcess(
        spawn(process.execPath, ['dist/server/worker.js'], {
          env: { ...process.env, ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      );
      const [message] = await waitFor(() => receiver.delivered().length > 0 && receiver.delivered());
      expect(new Webhook(hook.webhook.secret).verify(message!.body, message!.headers)).toMatchObject({
        type: 'scan_completed',
        data: { scan_id: created.scan_id },
      });
    } finally {
      worker?.kill('SIGTERM');
      server.child.kill('SIGKILL');
      await receiver.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
