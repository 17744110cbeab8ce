import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTenant, startApi, type Tenant, type TestApi } from './support/api.ts';
import { postgrestBackend, type FixtureBackend } from './support/backend-fixtures.ts';
import { freshSecrets, lovableSite, supabaseJwt, type Secrets } from './support/client-code-sites.ts';
import type { FixtureSite } from './support/fixture-sites.ts';
import { startReceiver, waitFor, type Receiver } from './support/receiver.ts';
import { formatCases, hostCases } from './support/generated-secrets.ts';
import { secretSamples } from './support/secret-samples.ts';

// The SQLite file is what an attacker with a copy of the database would search: this suite runs on SQLite only.
let api: TestApi;
let tenant: Tenant;
let site: FixtureSite;
let backend: FixtureBackend;
let receiver: Receiver;
let secrets: Secrets;
/** A credential of every kind the rules know, in bundle-style code: by format, and by the API host beside it. */
const firstOfKind = <T extends { kind: string }>(cases: T[]) =>
  cases.filter((c, i) => cases.findIndex((o) => o.kind === c.kind) === i);
const samples = [
  ...secretSamples().flatMap((kind) => kind.positives),
  ...firstOfKind(formatCases()),
  ...firstOfKind(hostCases()).slice(0, 20),
  {
    secret: 'kQ7vX2mR9tL4wZ8nB3cY6hJ1pD5sF0gA',
    code: 'fetch("https://api.quotely.dev/v1",{headers:{Authorization:"Bearer kQ7vX2mR9tL4wZ8nB3cY6hJ1pD5sF0gA"}});',
  },
];
const logs: string[] = [];

beforeAll(async () => {
  secrets = freshSecrets();
  const anonKey = supabaseJwt('anon');
  backend = await postgrestBackend(anonKey, { profiles: { access: 'open', rows: [{ id: 1, email: 'a@b.nl' }] } });
  const appCode = `const k="${secrets.stripe}",o="${secrets.openai}",s="${secrets.serviceRole}",c={accessKeyId:"${secrets.awsKeyId}",secretAccessKey:"${secrets.awsSecret}"},d="${secrets.databaseUrl}";${samples.map((sample) => sample.code).join('\n')}`;
  site = await lovableSite({ supabaseUrl: backend.url, publicKey: anonKey, appCode });
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
  // A file of its own: the search below is of the SQLite file, whichever engine the run's other suites use.
  api = await startApi(
    {
      LOG_LEVEL: 'trace',
      WEBHOOK_POLL_INTERVAL: '50ms',
      DATABASE_PATH: join(mkdtempSync(join(tmpdir(), 'secrets-storage-')), 'scanner.db'),
    },
    { logStream },
  );
  tenant = await seedTenant(api.db, site.url);
  receiver = await startReceiver();
});
afterAll(async () => {
  await api.close();
  await Promise.all([site.close(), backend.close(), receiver.close()]);
});

const secretValues = () => Object.entries(secrets).filter(([name]) => name !== 'privateKey' && name !== 'awsKeyId');

describe('a scan of a site leaking secrets', () => {
  it('stores, logs, answers and delivers each secret only redacted', async () => {
    const hook = await api.call('POST', '/api/agent/webhooks', {
      key: tenant.key,
      body: { url: receiver.url, events: ['finding_new'] },
    });
    expect(hook.status).toBe(201);
    const created = await api.call('POST', '/api/agent/scan', { key: tenant.key, body: { site_id: tenant.siteId } });
    expect(created.status).toBe(201);
    expect(['zwak', 'kritiek']).toContain(created.body.grade);
    const scanId: string = created.body.scan_id;

    const detail = await api.call('GET', `/api/agent/scans/${scanId}`, { key: tenant.key });
    const types = detail.body.findings.map((f: { finding_type: string }) => f.finding_type);
    for (const type of [
      'client_secret_stripe',
      'client_secret_openai',
      'client_secret_supabase_secret',
      'client_secret_aws',
      'client_secret_database_url',
      'supabase_table_personal_data_readable',
    ])
      expect(types).toContain(type);
    const stripe = detail.body.findings.find(
      (f: { finding_type: string }) => f.finding_type === 'client_secret_stripe',
    );
    expect(stripe.actual_value).toContain(
      `Stripe secret key sk_live_…${secrets.stripe.slice(-4)} (${secrets.stripe.length} tekens)`,
    );
    expect(stripe.endpoint).toBe(`${site.url}assets/index-CkQ2b9Xe.js`);
    // A key no row knows by format is named after the API host beside it, with that host as evidence.
    const byHost = detail.body.findings.find(
      (f: { finding_type: string }) => f.finding_type === 'client_secret_api_credential',
    );
    expect(byHost.severity).toBe('HIGH');
    expect(byHost.actual_value).toContain('inloggegeven voor api.quotely.dev kQ7vX2mR…F0gA (32 tekens)');
    expect(byHost.actual_value).toContain('(32 tekens)');

    const answers = [
      JSON.stringify(detail.body),
      JSON.stringify((await api.call('GET', '/api/agent/findings?limit=100', { key: tenant.key })).body),
      JSON.stringify((await api.call('GET', `/api/agent/scans/${scanId}/sarif`, { key: tenant.key })).body),
    ];
    await waitFor(() => receiver.delivered().length >= types.length);
    const delivered = receiver.delivered().map((r) => r.body);
    // A checkpoint first: the file then holds every stored row, whatever the background checkpointer was doing.
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(api.db);
    const stored = [api.dbPath, `${api.dbPath}-wal`]
      .filter(existsSync)
      .map((file) => readFileSync(file).toString('utf8'));
    for (const [name, secret] of secretValues()) {
      for (const [where, texts] of Object.entries({ answers, webhooks: delivered, logs, database: stored })) {
        expect(
          texts.some((text) => text.includes(secret)),
          `${name} in ${where}`,
        ).toBe(false);
      }
    }
    // What a preview never shows (all but the first 8 and last 4 characters) is nowhere, for every kind.
    for (const { secret } of samples) {
      // Short values show a quarter at the start (as redact does): the rest up to the last 4 is hidden.
      const hidden = secret
        .slice(Math.min(8, Math.floor(secret.length / 4)), -4)
        .split('\n')
        .sort((a, b) => b.length - a.length)[0]!;
      for (const [where, texts] of Object.entries({ answers, webhooks: delivered, logs, database: stored })) {
        expect(
          texts.some((text) => text.includes(hidden)),
          `${secret.slice(0, 8)}… in ${where}`,
        ).toBe(false);
      }
    }
    // The check above could not pass by accident: the redacted previews are there.
    expect(stored.some((text) => text.includes(`sk_live_…${secrets.stripe.slice(-4)}`))).toBe(true);
  });
});
