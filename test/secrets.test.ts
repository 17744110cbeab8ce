import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { insertWebhook } from '../db/webhooks.ts';
import { SecretBox, SECRETS_KEY_FILE } from '../infra/secret-encryption.ts';
import { startApi, seedTenant } from './support/api.ts';

const dir = mkdtempSync(join(tmpdir(), 'scanner-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const keyA = randomBytes(32);
const keyB = randomBytes(32);
const b64 = (key: Buffer) => key.toString('base64');
const stored = async (api: Awaited<ReturnType<typeof startApi>>) =>
  await api.db.selectFrom('webhooks').select(['id', 'secret']).orderBy('created_at').execute();

describe('webhook secrets at rest', () => {
  it('stores secrets encrypted, generating the key file beside the database on first start', async () => {
    const api = await startApi({ DATABASE_PATH: join(dir, 'generated.db') });
    try {
      const tenant = await seedTenant(api.db, 'https://example.nl/');
      const created = await api.call('POST', '/api/agent/webhooks', {
        key: tenant.key,
        body: { url: 'https://hooks.example.nl/in', events: ['scan_completed'] },
      });
      expect(created.status).toBe(201);
      const [row] = await stored(api);
      expect(row!.secret).toMatch(/^enc:v1:/);
      expect(row!.secret).not.toContain(created.body.webhook.secret.slice(6));
      expect(statSync(join(dir, SECRETS_KEY_FILE)).mode & 0o777).toBe(0o600);
    } finally {
      await api.close();
    }
  });

  it('re-encrypts plain-text and old-key secrets with the current key at start, so rotating is a restart', async () => {
    const path = join(dir, 'rotate.db');
    const plain = `whsec_${randomBytes(32).toString('base64')}`;
    let api = await startApi({ DATABASE_PATH: path, SECRETS_KEY: b64(keyA) });
    const tenant = await seedTenant(api.db, 'https://example.nl/');
    const created = await api.call('POST', '/api/agent/webhooks', {
      key: tenant.key,
      body: { url: 'https://hooks.example.nl/in', events: ['scan_completed'] },
    });
    await insertWebhook(
      api.db,
      tenant.tenantId,
      'https://hooks.example.nl/oud',
      ['scan_completed'],
      plain,
      new Date().toISOString(),
    );
    await api.close();

    api = await startApi({ DATABASE_PATH: path, SECRETS_KEY: `${b64(keyB)},${b64(keyA)}` });
    await api.app.ready();
    const rows = await stored(api);
    await api.close();
    const onlyB = new SecretBox([keyB]);
    expect(rows.map((row) => onlyB.isCurrent(row.secret))).toEqual([true, true]);
    expect(rows.map((row) => onlyB.decrypt(row.secret))).toEqual([created.body.webhook.secret, plain]);
    expect(() => new SecretBox([keyA]).decrypt(rows[0]!.secret)).toThrow(/SECRETS_KEY/);
  });

  it('refuses a SECRETS_KEY that is not base64 of 32 bytes, naming the variable', async () => {
    await expect(startApi({ DATABASE_PATH: join(dir, 'bad.db'), SECRETS_KEY: 'te-kort' })).rejects.toThrow(
      /SECRETS_KEY/,
    );
  });
});
