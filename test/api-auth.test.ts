import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as admin from '../services/admin.ts';
import { PERMISSIONS } from '../domain/vocabulary.ts';
import { LINGER } from '../server/lingering-close.ts';
import { seedTenant, startApi, type Tenant, type TestApi } from './support/api.ts';

let api: TestApi;
let tenant: Tenant;
beforeAll(async () => {
  api = await startApi();
  tenant = await seedTenant(api.db, 'https://example.nl/');
});
afterAll(() => api.close());

const PROTECTED: Array<[string, string, string, unknown?]> = [
  ['GET', '/api/agent/scans', 'read_scans'],
  ['GET', '/api/agent/scans/00000000-0000-4000-8000-000000000000', 'read_scans'],
  ['POST', '/api/agent/scan', 'write_scans', { site_id: '00000000-0000-4000-8000-000000000000' }],
  ['GET', '/api/agent/findings', 'read_findings'],
  [
    'POST',
    '/api/agent/suggestions',
    'suggest_fixes',
    { type: 'code_fix', title: 'Titel', description: 'Beschrijving lang genoeg' },
  ],
  ['GET', '/api/agent/suggestions', 'suggest_fixes'],
  ['GET', '/api/agent/config', 'read_config'],
  ['GET', '/api/agent/webhooks', 'read_config'],
  ['POST', '/api/agent/webhooks', 'write_config', { url: 'https://hooks.example.nl/', events: ['scan_completed'] }],
  ['DELETE', '/api/agent/webhooks?id=00000000-0000-4000-8000-000000000000', 'write_config'],
  ['GET', '/api/agent/docs', 'read_docs'],
  ['GET', '/api/agent/sites', 'read_scans'],
];

describe('POST /api/agent/auth', () => {
  it('validates a key and returns the agent and the endpoint map', async () => {
    const { status, body } = await api.call('POST', '/api/agent/auth', { body: { api_key: tenant.key } });
    expect(status).toBe(200);
    expect(body).toEqual({
      authenticated: true,
      agent: { key_id: tenant.keyId, name: 'test agent', permissions: [...PERMISSIONS], rate_limit: 100 },
      endpoints: {
        scans: '/api/agent/scans',
        scan_trigger: '/api/agent/scan',
        findings: '/api/agent/findings',
        suggestions: '/api/agent/suggestions',
        docs: '/api/agent/docs',
        config: '/api/agent/config',
        webhooks: '/api/agent/webhooks',
        sites: '/api/agent/sites',
      },
    });
  });

  it.each([[{}], [{ api_key: 42 }], [{ api_key: null }], [{ api_key: ['sak_x'] }]])(
    'answers 400 when api_key is missing or not a string: %j',
    async (body) => {
      const response = await api.call('POST', '/api/agent/auth', { body });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['error']);
      expect(response.body.error).toMatch(/api_key/);
    },
  );

  it('answers 401 for an unknown key, a key with a bad checksum, and an empty string', async () => {
    const forged = `${tenant.key.slice(0, -1)}${tenant.key.endsWith('A') ? 'B' : 'A'}`;
    for (const api_key of ['sak_nope', forged, '', 'Bearer x']) {
      const response = await api.call('POST', '/api/agent/auth', { body: { api_key } });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: expect.any(String) });
    }
  });

  it('answers 401 for a revoked key, a blocked user and a suspended tenant', async () => {
    const revoked = await seedTenant(api.db, 'https://a.nl/');
    await admin.revokeKey({ db: api.db, config: api.config }, { key_id: revoked.keyId });
    const blocked = await seedTenant(api.db, 'https://b.nl/');
    await admin.block({ db: api.db, config: api.config }, { user_id: blocked.userId });
    const suspended = await seedTenant(api.db, 'https://c.nl/');
    await admin.suspend({ db: api.db, config: api.config }, { tenant_id: suspended.tenantId });
    for (const t of [revoked, blocked, suspended]) {
      expect((await api.call('POST', '/api/agent/auth', { body: { api_key: t.key } })).status).toBe(401);
      expect((await api.call('GET', '/api/agent/scans', { key: t.key })).status).toBe(401);
    }
  });
});

describe('authentication and permissions on every endpoint', () => {
  it.each(PROTECTED)('%s %s needs a key (401)', async (method, path, _permission, body) => {
    for (const key of [undefined, 'sak_invalid']) {
      const response = await api.call(method, path, { key, body });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: expect.stringMatching(/sleutel/i) });
    }
  });

  it.each(PROTECTED)('%s %s needs %s (403 without it)', async (method, path, permission, body) => {
    const others = PERMISSIONS.filter((p) => p !== permission);
    const limited = await seedTenant(api.db, 'https://limited.nl/', { permissions: others, plan: 'enterprise' });
    const response = await api.call(method, path, { key: limited.key, body });
    expect(response.status).toBe(403);
    expect(response.body.error).toContain(permission);
  });

  it('rejects an Authorization header without the Bearer scheme and accepts the scheme in any case', async () => {
    expect((await api.call('GET', '/api/agent/scans', { headers: { authorization: tenant.key } })).status).toBe(401);
    expect(
      (await api.call('GET', '/api/agent/scans', { headers: { authorization: `bearer ${tenant.key}` } })).status,
    ).toBe(200);
  });
});

describe('error shape and transport', () => {
  it('answers unknown paths with 404 and the error body', async () => {
    const response = await api.call('GET', '/api/agent/nothing-here');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: expect.any(String) });
  });

  it('answers malformed JSON with 400, a foreign content type with 415, an empty JSON body with 400', async () => {
    const bad = await api.call('POST', '/api/agent/auth', {
      rawBody: '{"api_key":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: expect.stringMatching(/JSON/) });
    const xml = await api.call('POST', '/api/agent/auth', {
      rawBody: '<key/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(xml.status).toBe(415);
    expect(xml.body).toEqual({ error: expect.any(String) });
    const empty = await api.call('POST', '/api/agent/auth', {
      rawBody: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.status).toBe(400);
  });

  it('answers a body over 1 MiB with 413', async () => {
    const response = await api.call('POST', '/api/agent/suggestions', {
      key: tenant.key,
      body: { type: 'code_fix', title: 'Groot', description: 'x'.repeat(1024 * 1024 + 10) },
    });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ error: expect.any(String) });
  });

  it('reads a refused body on, up to 16 MiB, then answers 413 and closes the connection', async () => {
    const { port, hostname } = new URL(api.url);
    const socket = net.connect(Number(port), hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/agent/suggestions HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${tenant.key}\r\nContent-Type: application/json\r\nContent-Length: ${64 * 1024 * 1024}\r\n\r\n`,
    );
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => {});
    let sent = 0;
    const chunk = Buffer.alloc(256 * 1024, 0x78);
    while (!socket.destroyed && sent < 64 * 1024 * 1024) {
      sent += chunk.length;
      if (!socket.write(chunk)) await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), closed]);
    }
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    // Read on past the 1 MiB limit (a lingering close), cut off after the bound, well before the 64 MiB announced.
    expect(sent).toBeGreaterThan(LINGER.bytes);
    expect(sent).toBeLessThan(48 * 1024 * 1024);
  });

  it('sends nosniff and no X-Powered-By, and never a stack trace', async () => {
    const response = await api.call('GET', '/api/agent/scans?limit=abc', { key: tenant.key });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-powered-by')).toBeNull();
    expect(JSON.stringify(response.body)).not.toMatch(/at .*\.ts:\d+/);
  });

  it('answers GET /healthz without auth', async () => {
    const response = await api.call('GET', '/healthz');
    expect(response).toMatchObject({ status: 200, body: { status: 'ok' } });
  });
});
