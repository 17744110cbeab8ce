import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../bin/admin-cli.ts';
import { seedTenant, startApi } from './support/api.ts';
import { startReceiver, waitFor } from './support/receiver.ts';
import { leakyWordPressSite } from './support/sites.ts';

// The embedded default keeps everything in one SQLite file plus secrets.key: an online backup made
// while scans are written must start a service with every scan, key and finding, and webhook
// secrets that still decrypt. SQLite only: PostgreSQL is backed up with pg_dump (README).

const dir = mkdtempSync(join(tmpdir(), 'scanner-backup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function admin(args: string[], env: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { ...process.env, ...env },
  });
  return { code, stdout, stderr };
}

describe('admin backup and restore', () => {
  it('copies a running service consistently while scans are written; a service started on the copy has its scans, keys, findings and webhook secrets', async () => {
    const live = join(dir, 'live', 'scanner.db');
    mkdirSync(join(dir, 'live'));
    const site = await leakyWordPressSite();
    const receiver = await startReceiver();
    const api = await startApi({ DATABASE_PATH: live });
    let restored: Awaited<ReturnType<typeof startApi>> | null = null;
    try {
      const tenant = await seedTenant(api.db, site.url);
      const hook = (
        await api.call('POST', '/api/agent/webhooks', {
          key: tenant.key,
          body: { url: receiver.url, events: ['scan_completed'] },
        })
      ).body.webhook as { secret: string };
      const scan = () => api.call('POST', '/api/agent/scan', { key: tenant.key, body: { site_id: tenant.siteId } });
      expect((await scan()).status).toBe(201);
      // Scans keep being written while the copy is made.
      const writing = Promise.all(Array.from({ length: 4 }, scan));
      const out = join(dir, 'backup.db');
      const backup = await admin(['backup', '--out', out, '--json'], { DATABASE_PATH: live });
      await writing;
      expect(backup, backup.stderr).toMatchObject({ code: 0 });
      const report = JSON.parse(backup.stdout);
      expect(report).toMatchObject({
        backup: out,
        bytes: expect.any(Number),
        secrets_key: join(dir, 'live', 'secrets.key'),
      });
      expect((await admin(['backup', '--out', out], { DATABASE_PATH: live })).stderr).toMatch(/exists already/);

      // Restore: the file and the key it names, in a new place; a service started there.
      mkdirSync(join(dir, 'restored'));
      copyFileSync(out, join(dir, 'restored', 'scanner.db'));
      copyFileSync(report.secrets_key, join(dir, 'restored', 'secrets.key'));
      await api.close();
      restored = await startApi({ DATABASE_PATH: join(dir, 'restored', 'scanner.db') });
      const scans = await restored.call('GET', '/api/agent/scans', { key: tenant.key });
      expect(scans.status).toBe(200);
      expect(scans.body.scans.length).toBeGreaterThanOrEqual(1);
      const detail = await restored.call('GET', `/api/agent/scans/${scans.body.scans[0].id}`, { key: tenant.key });
      expect(detail.body.findings.map((f: { finding_type: string }) => f.finding_type)).toContain('exposed_git_config');
      // The webhook secret decrypts: a delivery from the restored service carries a valid signature.
      const before = receiver.delivered().length;
      expect(
        (await restored.call('POST', '/api/agent/scan', { key: tenant.key, body: { site_id: tenant.siteId } })).status,
      ).toBe(201);
      const message = await waitFor(() => receiver.delivered().length > before && receiver.delivered().at(-1));
      expect(new Webhook(hook.secret).verify(message.body, message.headers)).toMatchObject({ type: 'scan_completed' });
    } finally {
      await restored?.close();
      await api.close().catch(() => {});
      await Promise.all([site.close(), receiver.close()]);
    }
  });

  it('refuses PostgreSQL and names pg_dump', async () => {
    const result = await admin(['backup', '--out', join(dir, 'pg.db')], {
      DATABASE_URL: 'postgres://app@127.0.0.1:1/scanner',
      SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/pg_dump/);
  });
});
