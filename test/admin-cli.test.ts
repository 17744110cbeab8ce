import { onePageOf } from './support/scan-results.ts';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigratedDatabase } from '../db/database.ts';
import { recordScan } from '../db/scans.ts';
import { insertSuggestion } from '../db/suggestions.ts';
import { insertWebhook } from '../db/webhooks.ts';
import { toFinding } from '../scanner/report/findings.ts';
import { authenticateKey } from '../services/auth.ts';
import { runAdmin } from '../bin/admin-cli.ts';
import { seedTenant, startApi } from './support/api.ts';
import { freshDatabase, type TestDatabase } from './support/database.ts';

const run = promisify(execFile);
let database: TestDatabase;
beforeAll(async () => {
  database = await freshDatabase('cli');
});
afterAll(() => database.drop());

async function adminCli(...args: string[]) {
  return adminCliWith({}, ...args);
}

/** The admin commands run in this process, with their own output streams and environment. */
async function adminCliWith(env: Record<string, string>, ...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { ...process.env, ...database.env, ...env },
  });
  return { code, stdout, stderr };
}
const json = async (...args: string[]) => {
  const result = await adminCli(...args, '--json');
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
};

describe('admin CLI', () => {
  it('creates a tenant, user, key and site; the key works and is shown only at creation', async () => {
    const tenant = await json('tenant', 'create', '--name', 'Bakkerij', '--plan', 'free');
    expect(tenant).toMatchObject({ id: expect.any(String), name: 'Bakkerij', plan: 'free' });
    const user = await json('user', 'create', '--tenant', tenant.id, '--email', 'eigenaar@bakkerij.nl');
    const key = await json(
      'key',
      'create',
      '--user',
      user.id,
      '--name',
      'ci',
      '--permissions',
      'read_scans,write_scans',
      '--rate-limit',
      '250',
    );
    expect(key).toEqual({
      key_id: expect.any(String),
      key: expect.stringMatching(/^sak_[0-9A-Za-z]{46}$/),
      name: 'ci',
      permissions: ['read_scans', 'write_scans'],
      rate_limit: 250,
    });

    const db = await openMigratedDatabase(database.location);
    try {
      expect(await authenticateKey(db, key.key)).toMatchObject({
        actor: { kind: 'api_key', id: key.key_id },
        tenantId: tenant.id,
        rateLimit: 250,
      });
      const stored = await db.selectFrom('api_keys').selectAll().executeTakeFirstOrThrow();
      expect(JSON.stringify(stored)).not.toContain(key.key);
    } finally {
      await db.destroy();
    }

    const listed = await json('key', 'list', '--user', user.id);
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(key.key);
    const readable = await adminCli('key', 'list', '--user', user.id);
    expect(readable.stdout).toContain('name=ci');

    const site = await json(
      'site',
      'create',
      '--tenant',
      tenant.id,
      '--name',
      'Winkel',
      '--url',
      'https://bakkerij.nl/',
    );
    expect(site).toMatchObject({ id: expect.any(String), url: 'https://bakkerij.nl/' });
    const second = await adminCli(
      'site',
      'create',
      '--tenant',
      tenant.id,
      '--name',
      'Tweede',
      '--url',
      'https://b.nl/',
      '--json',
    );
    expect(second.code).toBe(1);
    expect(second.stdout).toBe('');
    expect(second.stderr).toMatch(/maximaal 1 site/);

    expect(await json('key', 'revoke', '--id', key.key_id)).toEqual({ key_id: key.key_id, revoked: true });
  });

  it('refuses a key for a blocked user and rejects unknown permissions', async () => {
    const tenant = await json('tenant', 'create', '--name', 'Tweede');
    const user = await json('user', 'create', '--tenant', tenant.id, '--email', 'geblokkeerd@example.nl');
    const bad = await adminCli('key', 'create', '--user', user.id, '--name', 'x', '--permissions', 'read_everything');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--permissions: Ongeldige optie/);
    await json('user', 'block', '--id', user.id);
    const refused = await adminCli('key', 'create', '--user', user.id, '--name', 'x', '--permissions', 'read_scans');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/geblokkeerd en kan geen sleutels aanmaken/);
  });

  it('refuses a key beyond MAX_ACTIVE_KEYS_PER_USER with a clear message', async () => {
    const tenant = await json('tenant', 'create', '--name', 'Limiet');
    const user = await json('user', 'create', '--tenant', tenant.id, '--email', 'limiet@example.nl');
    await json('key', 'create', '--user', user.id, '--name', 'een', '--permissions', 'read_scans');
    const refused = await adminCliWith(
      { MAX_ACTIVE_KEYS_PER_USER: '1' },
      'key',
      'create',
      '--user',
      user.id,
      '--name',
      'twee',
      '--permissions',
      'read_scans',
      '--json',
    );
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/Maximaal 1 actieve sleutels per gebruiker/);
  });

  it('reviews suggestions, sets finding statuses and manages webhooks', async () => {
    const tenant = await json('tenant', 'create', '--name', 'Beheer', '--plan', 'pro');
    const user = await json('user', 'create', '--tenant', tenant.id, '--email', 'beheer@example.nl');
    const key = await json('key', 'create', '--user', user.id, '--name', 'agent', '--permissions', 'suggest_fixes');
    const site = await json(
      'site',
      'create',
      '--tenant',
      tenant.id,
      '--name',
      'Site',
      '--url',
      'https://beheer.example/',
    );
    const db = await openMigratedDatabase(database.location);
    let suggestionId: string;
    let findingId: string;
    let webhookId: string;
    try {
      suggestionId = (
        await insertSuggestion(
          db,
          tenant.id,
          { kind: 'api_key', id: key.key_id },
          { type: 'code_fix', title: 'Voorstel', description: 'Een beschrijving' },
          new Date().toISOString(),
        )
      ).id;
      const finding = toFinding({ type: 'hsts_missing', endpoint: 'https://beheer.example/', actual_value: null });
      const result = {
        url: 'https://beheer.example/',
        score: 92,
        grade: 'uitstekend' as const,
        ssl_score: 92,
        headers_score: 100,
        endpoints_score: 100,
        detected_platform: null,
        detected_server: null,
        scanned_at: new Date().toISOString(),
        findings: [finding],
        failed_checks: [],
        coverage: [],
        unreachable: null,
        passive: false,
        requests_made: 1,
        expiries: [],
        internetnl: null,
        mail: null,
        ...onePageOf(site.url),
      };
      const recorded = await db.transaction().execute((trx) => recordScan(trx, tenant.id, site.id, result, 'api'));
      findingId = recorded.opened[0]!.id;
      webhookId = (
        await insertWebhook(
          db,
          tenant.id,
          'https://hooks.example.nl/',
          ['scan_completed'],
          `whsec_${Buffer.alloc(32, 3).toString('base64')}`,
          new Date().toISOString(),
        )
      ).id;
    } finally {
      await db.destroy();
    }
    expect(
      await json('suggestion', 'review', '--id', suggestionId, '--status', 'approved', '--notes', 'Prima'),
    ).toMatchObject({ id: suggestionId, status: 'approved', review_notes: 'Prima', reviewed_at: expect.any(String) });
    expect((await adminCli('suggestion', 'review', '--id', suggestionId, '--status', 'pending')).stderr).toMatch(
      /--status: Ongeldige optie: verwacht één van "approved"|"rejected"|"applied"/,
    );
    expect((await adminCli('finding', 'set-status', '--id', findingId, '--status', 'ACCEPTED_RISK')).stderr).toMatch(
      /reden/,
    );
    expect(
      await json(
        'finding',
        'set-status',
        '--id',
        findingId,
        '--status',
        'ACCEPTED_RISK',
        '--reason',
        'Alleen intern bereikbaar',
        '--owner',
        user.id,
        '--expires',
        new Date(Date.now() + 90 * 86_400_000).toISOString(),
      ),
    ).toMatchObject({
      id: findingId,
      status: 'ACCEPTED_RISK',
      finding_type: 'hsts_missing',
      acceptance: { reason: 'Alleen intern bereikbaar', owner: { id: user.id } },
    });
    const later = new Date(Date.now() + 200 * 86_400_000).toISOString();
    expect(await json('finding', 'extend', '--id', findingId, '--expires', later)).toMatchObject({
      status: 'ACCEPTED_RISK',
      acceptance: { expires_at: later, created_by: 'admin-cli', owner: { id: user.id } },
    });
    const tooFar = await adminCli('finding', 'extend', '--id', findingId, '--expires', '2099-01-01T00:00:00Z');
    expect(tooFar.code).toBe(1);
    expect(tooFar.stderr).toMatch(/365 dagen/);
    const hooks = await json('webhook', 'list', '--tenant', tenant.id);
    expect(hooks).toEqual([
      expect.objectContaining({ id: webhookId, enabled: true, failure_count: 0, events: ['scan_completed'] }),
    ]);
    expect(JSON.stringify(hooks)).not.toContain('whsec_');
    expect(await json('webhook', 'enable', '--id', webhookId)).toEqual({ id: webhookId, enabled: true });
    expect(await json('webhook', 'deliveries', '--id', webhookId)).toEqual([]);
    expect((await adminCli('webhook', 'enable', '--id', 'nope')).code).toBe(1);
  });

  it('sets feature flags and reports usage errors with a non-zero exit', async () => {
    expect(await json('flag', 'set', '--key', 'webhooks', '--enabled', 'false', '--rollout', '30')).toMatchObject({
      key: 'webhooks',
      enabled: false,
      rollout_percentage: 30,
    });
    expect((await adminCli('flag', 'set', '--key', 'nope')).code).toBe(1);
    expect((await adminCli('tenant', 'create')).stderr).toMatch(/--name is required/);
    expect((await adminCli('frobnicate')).code).toBe(2);
    expect((await adminCli('tenant', 'create', '--name', 'x', '--plan', 'gold')).stderr).toMatch(
      /--plan: Ongeldige optie/,
    );
  });

  it('revokes a key from another process: the very next request of a running service is 401', async () => {
    const api = await startApi({ ...database.env });
    try {
      const tenant = await seedTenant(api.db, 'https://intrekken.example/');
      // Warm the service's key lookup, so the key is answered from its cache.
      for (let i = 0; i < 3; i++)
        expect((await api.call('GET', '/api/agent/sites', { key: tenant.key })).status).toBe(200);
      const { stdout } = await run(
        'npm',
        ['run', '-s', 'admin', '--', 'key', 'revoke', '--id', tenant.keyId, '--json'],
        { env: { ...process.env, ...database.env } },
      );
      expect(JSON.parse(stdout)).toEqual({ key_id: tenant.keyId, revoked: true });
      expect((await api.call('GET', '/api/agent/sites', { key: tenant.key })).status).toBe(401);
    } finally {
      await api.close();
    }
  });
});
