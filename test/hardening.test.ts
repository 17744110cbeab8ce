import net from 'node:net';
import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanSite } from '../scanner/index.ts';
import { createSite } from '../services/admin.ts';
import { startApi, seedTenant, type Tenant, type TestApi } from './support/api.ts';
import { rawSite, type HostileSite } from './support/hostile-sites.ts';

const logs: string[] = [];
const logStream = new PassThrough();
logStream.on('data', (chunk: Buffer) => logs.push(...chunk.toString().split('\n').filter(Boolean)));

let api: TestApi;
let owner: Tenant;
const servers: Array<{ close: () => Promise<void> }> = [];

beforeAll(async () => {
  api = await startApi(
    {
      LOG_LEVEL: 'info',
      REQUEST_TIMEOUT: '1s',
      MAX_WEBHOOKS_PER_TENANT: '2',
      MAX_CONCURRENT_SCANS_PER_TENANT: '1',
      SCANNER_REQUEST_TIMEOUT: '1s',
      SCANNER_DEADLINE: '2s',
    },
    { logStream },
  );
  owner = await seedTenant(api.db, 'http://127.0.0.1:9/', { plan: 'enterprise' });
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await api.close();
});

const deepJson = (depth: number) => `${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}`;

describe('inputs that gave 500', () => {
  it('answers 400 for control characters in a search, over REST and /trpc', async () => {
    const rest = await api.call('GET', '/api/agent/findings?search=a%00b', { key: owner.key });
    expect(rest.status).toBe(400);
    expect(rest.body.error).toMatch(/stuurtekens/);
    const trpc = await api.call(
      'GET',
      `/trpc/findings.list?input=${encodeURIComponent(JSON.stringify({ search: 'a\u0000bc' }))}`,
      { key: owner.key },
    );
    expect(trpc.status).toBe(400);
  });

  it('bounds the depth and size of suggestion metadata with a 400 that names the limit, and stores what fits', async () => {
    const body = (metadata: string) =>
      `{"type":"code_fix","title":"Een titel","description":"Een beschrijving","metadata":${metadata}}`;
    const deep = await api.call('POST', '/api/agent/suggestions', {
      key: owner.key,
      rawBody: body(deepJson(10_000)),
      headers: { 'content-type': 'application/json' },
    });
    expect(deep.status).toBe(400);
    expect(deep.body.error).toMatch(/32 niveaus/);
    const large = await api.call('POST', '/api/agent/suggestions', {
      key: owner.key,
      body: {
        type: 'code_fix',
        title: 'Een titel',
        description: 'Een beschrijving',
        metadata: { blob: 'x'.repeat(70_000) },
      },
    });
    expect(large.status).toBe(400);
    expect(large.body.error).toMatch(/64 KiB/);
    const fits = await api.call('POST', '/api/agent/suggestions', {
      key: owner.key,
      rawBody: body(deepJson(30)),
      headers: { 'content-type': 'application/json' },
    });
    expect(fits.status).toBe(201);
  });

  it('scans a site whose URL is an https:// IPv6 literal without a 500', async () => {
    const site = await createSite(
      { db: api.db, config: api.config },
      {
        tenant_id: owner.tenantId,
        name: 'IPv6',
        url: 'https://[::1]:9/',
      },
    );
    const response = await api.call('POST', '/api/agent/scan', { key: owner.key, body: { site_id: site.id } });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/niet bereikbaar/);
  });

  it('hides internal errors on /trpc as on REST, and logs each with its request id', async () => {
    const lines: string[] = [];
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
    const broken = await startApi({ LOG_LEVEL: 'info' }, { logStream: stream });
    servers.push(broken);
    const tenant = await seedTenant(broken.db, 'http://127.0.0.1:9/');
    // A missing table stands in for any fault below the procedures (on SQLite and PostgreSQL alike).
    await sql`ALTER TABLE finding_counts RENAME TO finding_counts_gone`.execute(broken.db);
    const trpc = await broken.call(
      'GET',
      `/trpc/findings.list?input=${encodeURIComponent(JSON.stringify({ severity: 'HIGH' }))}`,
      { key: tenant.key },
    );
    const rest = await broken.call('GET', '/api/agent/findings?severity=HIGH', { key: tenant.key });
    expect(trpc.status).toBe(500);
    expect(trpc.body.error.message).toBe('Interne serverfout.');
    expect(JSON.stringify(trpc.body)).not.toMatch(/finding_counts|no such table|does not exist|stack/);
    expect(rest).toMatchObject({ status: 500, body: { error: 'Interne serverfout.' } });
    const errors = lines.map((line) => JSON.parse(line)).filter((entry) => entry.level >= 50);
    expect(errors.length).toBeGreaterThanOrEqual(2);
    for (const entry of errors)
      expect(entry).toMatchObject({
        reqId: expect.any(String),
        err: expect.objectContaining({ message: expect.stringMatching(/finding_counts/) }),
      });
  });
});

describe('errors in the contract, in the right order', () => {
  it('authenticates before it parses the body: broken JSON without a key is 401', async () => {
    const response = await api.call('POST', '/api/agent/scan', {
      rawBody: '{kapot',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(401);
    const withKey = await api.call('POST', '/api/agent/scan', {
      key: owner.key,
      rawBody: '{kapot',
      headers: { 'content-type': 'application/json' },
    });
    expect(withKey.status).toBe(400);
  });

  it.each([
    ['an undecodable URL', '/api/agent/scans/%E0%A4%A', 400],
    ['an over-long path parameter', `/api/agent/scans/${'a'.repeat(500)}`, 414],
  ])('answers %s in the error shape, with the security headers', async (_name, path, status) => {
    const response = await api.call('GET', path, { key: owner.key });
    expect(response.status).toBe(status);
    expect(Object.keys(response.body)).toEqual(['error']);
    expect(response.body.error).not.toContain(path.slice(-20));
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('answers oversized headers with 431 in the error shape', async () => {
    const response = await fetch(`${api.url}/healthz`, { headers: { 'x-groot': 'a'.repeat(100_000) } });
    expect(response.status).toBe(431);
    expect(await response.json()).toEqual({ error: expect.stringMatching(/headers/) });
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('limits that batches and slow clients got around', () => {
  it('counts every call of a /trpc batch against the per-key limit, refusing a batch that does not fit', async () => {
    const limited = await seedTenant(api.db, 'http://127.0.0.1:9/', { rateLimit: 5 });
    const batch = (n: number) =>
      `/trpc/${Array(n).fill('scans.list').join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [i, {}]))))}`;
    expect((await api.call('GET', batch(7), { key: limited.key })).status).toBe(429);
    const fresh = await seedTenant(api.db, 'http://127.0.0.1:9/', { rateLimit: 5 });
    expect((await api.call('GET', batch(3), { key: fresh.key })).status).toBe(200);
    expect((await api.call('GET', batch(3), { key: fresh.key })).status).toBe(429);
    // Commas written escaped name as many calls.
    const escaped = await seedTenant(api.db, 'http://127.0.0.1:9/', { rateLimit: 5 });
    expect((await api.call('GET', batch(6).replace(/,/g, '%2C'), { key: escaped.key })).status).toBe(429);
  });

  it('closes a request whose body drips in slower than the request timeout, with 408', async () => {
    const { port } = new URL(api.url);
    const started = Date.now();
    const answer = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(
          'POST /api/agent/auth HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
        );
        const drip = setInterval(() => socket.writable && socket.write(' '), 400);
        let text = '';
        socket.on('data', (chunk) => (text += chunk));
        socket.on('close', () => {
          clearInterval(drip);
          resolve(text);
        });
      });
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain('{"error":');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('caps scans in flight per tenant with 429 and Retry-After', async () => {
    const slow: HostileSite = await rawSite((socket) =>
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 1000\r\n\r\n<'),
    );
    servers.push(slow);
    const site = await createSite(
      { db: api.db, config: api.config },
      {
        tenant_id: owner.tenantId,
        name: 'Traag',
        url: slow.url,
      },
    );
    const both = await Promise.all(
      [1, 2].map(() => api.call('POST', '/api/agent/scan', { key: owner.key, body: { site_id: site.id } })),
    );
    expect(both.map((r) => r.status).sort()).toEqual([201, 429]);
    const refused = both.find((r) => r.status === 429)!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.error).toMatch(/scans/);
  });

  it('caps webhooks per tenant with 409 and a clear message', async () => {
    const tenant = await seedTenant(api.db, 'http://127.0.0.1:9/');
    const create = () =>
      api.call('POST', '/api/agent/webhooks', {
        key: tenant.key,
        body: { url: 'https://hooks.example.nl/in', events: ['scan_completed'] },
      });
    expect((await create()).status).toBe(201);
    expect((await create()).status).toBe(201);
    const third = await create();
    expect(third.status).toBe(409);
    expect(third.body.error).toMatch(/Maximaal 2 webhooks/);
  });
});

describe('address rules at the API', () => {
  it.each(['https://[::127.0.0.1]/', 'https://[::7f00:1]/', 'https://169.254.170.2/', 'https://[64:ff9b::7f00:1]/'])(
    'refuses the webhook receiver %s even with private targets allowed',
    async (url) => {
      const response = await api.call('POST', '/api/agent/webhooks', {
        key: (await seedTenant(api.db, 'http://127.0.0.1:9/')).key,
        body: { url, events: ['scan_completed'] },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(400);
    },
  );

  it('refuses localhost receivers written with a trailing dot, as without', async () => {
    const strict = await startApi({ SCANNER_ALLOW_PRIVATE_TARGETS: 'false' });
    servers.push(strict);
    const tenant = await seedTenant(strict.db, 'https://example.nl/');
    for (const url of ['https://localhost./', 'https://foo.localhost./', 'https://LOCALHOST../']) {
      const response = await strict.call('POST', '/api/agent/webhooks', {
        key: tenant.key,
        body: { url, events: ['scan_completed'] },
      });
      expect(response.status, url).toBe(400);
    }
  });

  it('refuses a scan of an IPv4-compatible IPv6 literal', async () => {
    const site = await createSite(
      { db: api.db, config: api.config },
      {
        tenant_id: owner.tenantId,
        name: 'Compat',
        url: 'http://[::127.0.0.1]:9/',
      },
    );
    const response = await api.call('POST', '/api/agent/scan', { key: owner.key, body: { site_id: site.id } });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/geweigerd/);
  });

  it("keeps a url override on the site's port or the default one", async () => {
    const site = await createSite(
      { db: api.db, config: api.config },
      {
        tenant_id: owner.tenantId,
        name: 'Poort',
        url: 'https://shop.example.nl/',
      },
    );
    const response = await api.call('POST', '/api/agent/scan', {
      key: owner.key,
      body: { site_id: site.id, url: 'http://shop.example.nl:8080/beheer' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/poort/);
  });
});

describe('headers and logs', () => {
  it('gives every kind of answer the security headers and no-store', async () => {
    for (const [method, path, key] of [
      ['GET', '/healthz'],
      ['GET', '/api/agent/scans', owner.key],
      ['GET', '/api/agent/scans'],
      ['GET', '/bestaat-niet'],
      ['GET', '/docs'],
      ['GET', '/openapi.json'],
    ] as Array<[string, string, string?]>) {
      const { headers } = await api.call(method, path, { key });
      for (const name of [
        'content-security-policy',
        'x-frame-options',
        'x-content-type-options',
        'referrer-policy',
        'permissions-policy',
        'cross-origin-opener-policy',
      ])
        expect(headers.get(name), `${name} on ${path}`).toBeTruthy();
      if (path !== '/docs') expect(headers.get('cache-control'), path).toBe('no-store');
    }
  });

  it.each(['/', '/docs'])('passes its own scanner on %s: no SECURITY_HEADER finding above LOW', async (path) => {
    const result = await scanSite(`${api.url}${path}`, { allowPrivateTargets: true, probeExposures: false });
    expect(
      result.findings
        .filter((f) => f.category === 'SECURITY_HEADER' && f.severity !== 'LOW')
        .map((f) => f.finding_type),
    ).toEqual([]);
  });

  it('answers a plain /trpc query once: one answer per request, nothing logged above info', async () => {
    const from = logs.length;
    const answers = await Promise.all(
      ['scans.list', 'sites.list', 'config.get'].map((path) => api.call('GET', `/trpc/${path}`, { key: owner.key })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    // Give a second answer attempt (a "Reply was already sent" warning) the time to be logged.
    await new Promise((settled) => setTimeout(settled, 50));
    const entries = logs.slice(from).map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(entries.filter((entry) => entry.level > 30).map((entry) => entry.msg)).toEqual([]);
    expect(entries.filter((entry) => entry.msg === 'request completed')).toHaveLength(3);
  });

  it('refuses a key in the query string with 400, and never logs it', async () => {
    const response = await api.call('GET', `/api/agent/scans?api_key=${owner.key}`);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/Authorization/);
    await api.call('GET', `/api/agent/onbekend/${owner.key}`);
    api.app.log.warn({ detail: { header: `Bearer ${owner.key}` } }, `geplakt: ${owner.key}`);
    expect(logs.join('\n')).not.toContain(owner.key);
    expect(logs.join('\n')).toContain('sak_[REDACTED]');
  });
});
