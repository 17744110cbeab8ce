import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTRPCClient, httpLink } from '@trpc/client';
import { openMigratedDatabase } from '../db/database.ts';
import { waitFor } from './support/receiver.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../routers/index.ts';
import { monthOf, secondsUntilNextMonth } from '../services/limits/quotas.ts';
import * as admin from '../services/admin.ts';
import { seedTenant, startApi, type TestApi } from './support/api.ts';
import type { FixtureSite } from './support/fixture-sites.ts';
import { hardenedSite } from './support/sites.ts';

const dir = mkdtempSync(join(tmpdir(), 'scanner-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('per-key rate limit', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  it('allows rate_limit requests per minute with headers, then 429 with Retry-After; other keys are unaffected', async () => {
    const noisy = await seedTenant(api.db, 'https://a.example/', { rateLimit: 3 });
    const quiet = await seedTenant(api.db, 'https://b.example/', { rateLimit: 3 });
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await api.call('GET', '/api/agent/scans', { key: noisy.key });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-limit')).toBe('3');
      expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
      remaining.push(response.headers.get('x-ratelimit-remaining')!);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const limited = await api.call('GET', '/api/agent/scans', { key: noisy.key });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: expect.stringMatching(/Te veel verzoeken/) });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await api.call('GET', '/api/agent/scans', { key: quiet.key })).status).toBe(200);
  });

  it('counts REST and /trpc calls of one key together', async () => {
    const tenant = await seedTenant(api.db, 'https://c.example/', { rateLimit: 2 });
    const client = createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${api.url}/trpc`, headers: { authorization: `Bearer ${tenant.key}` } })],
    });
    await client.scans.list.query();
    expect((await api.call('GET', '/api/agent/scans', { key: tenant.key })).status).toBe(200);
    await expect(client.scans.list.query()).rejects.toMatchObject({ data: { httpStatus: 429 } });
  });
});

describe('per-IP rate limit', () => {
  it('limits every request of an address, authenticated or not, including key guessing on /auth', async () => {
    const api = await startApi({ IP_RATE_LIMIT_PER_MINUTE: '5' });
    try {
      const tenant = await seedTenant(api.db, 'https://d.example/');
      for (let i = 0; i < 4; i++)
        expect((await api.call('POST', '/api/agent/auth', { body: { api_key: `sak_guess${i}` } })).status).toBe(401);
      expect((await api.call('GET', '/healthz')).status).toBe(200);
      const blocked = await api.call('POST', '/api/agent/auth', { body: { api_key: tenant.key } });
      expect(blocked.status).toBe(429);
      expect(blocked.body).toEqual({ error: expect.any(String) });
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await api.close();
    }
  });

  it('uses X-Forwarded-For only when TRUST_PROXY is true', async () => {
    for (const [trust, expected] of [
      ['true', 200],
      ['false', 429],
    ] as const) {
      const api = await startApi({ IP_RATE_LIMIT_PER_MINUTE: '1', TRUST_PROXY: trust });
      try {
        expect((await api.call('GET', '/healthz', { headers: { 'x-forwarded-for': '203.0.113.1' } })).status).toBe(200);
        expect((await api.call('GET', '/healthz', { headers: { 'x-forwarded-for': '203.0.113.2' } })).status).toBe(
          expected,
        );
      } finally {
        await api.close();
      }
    }
  });
});

describe('monthly plan quotas', () => {
  let site: FixtureSite;
  beforeAll(async () => {
    site = await hardenedSite();
  });
  afterAll(() => site.close());

  it('refuses API calls over max_api_calls_per_month with 429 until the month turns, also after a restart', async () => {
    const DATABASE_PATH = join(dir, 'quota.db');
    let api = await startApi({ DATABASE_PATH });
    const tenant = await seedTenant(api.db, 'https://e.example/', { plan: 'free' });
    const other = await seedTenant(api.db, 'https://f.example/', { plan: 'pro' });
    await api.db.updateTable('plans').set({ max_api_calls_per_month: 3 }).where('tier', '=', 'free').execute();
    for (let i = 0; i < 3; i++)
      expect((await api.call('GET', '/api/agent/scans', { key: tenant.key })).status).toBe(200);
    const refused = await api.call('GET', '/api/agent/scans', { key: tenant.key });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/max_api_calls_per_month/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Math.abs(retryAfter - secondsUntilNextMonth(new Date()))).toBeLessThan(5);
    expect((await api.call('GET', '/api/agent/scans', { key: other.key })).status).toBe(200);

    await api.close();
    api = await startApi({ DATABASE_PATH });
    expect((await api.call('GET', '/api/agent/scans', { key: tenant.key })).status).toBe(429);
    // Counts reach the database at the latest when the service stops.
    await api.close();
    const db = await openMigratedDatabase(DATABASE_PATH);
    try {
      const stored = await db
        .selectFrom('usage_counters')
        .selectAll()
        .where('tenant_id', '=', tenant.tenantId)
        .executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ period: monthOf(new Date()), metric: 'api_calls', count: 5 });
    } finally {
      await db.destroy();
    }
  });

  it('writes nothing to the database on a GET: API calls are counted in memory and stored within a second', async () => {
    const api = await startApi();
    try {
      const tenant = await seedTenant(api.db, 'https://g.example/');
      const stored = () =>
        api.db
          .selectFrom('usage_counters')
          .select('count')
          .where('tenant_id', '=', tenant.tenantId)
          .where('metric', '=', 'api_calls')
          .executeTakeFirst();
      for (let i = 0; i < 5; i++)
        expect((await api.call('GET', '/api/agent/scans', { key: tenant.key })).status).toBe(200);
      expect(await stored()).toBeUndefined();
      await waitFor(async () => (await stored())?.count === 5, 3_000);
    } finally {
      await api.close();
    }
  });

  it('refuses scans over max_scans_per_month with 429 naming the quota', async () => {
    const api = await startApi();
    try {
      const tenant = await seedTenant(api.db, site.url, { plan: 'free' });
      await api.db.updateTable('plans').set({ max_scans_per_month: 1 }).where('tier', '=', 'free').execute();
      expect(
        (await api.call('POST', '/api/agent/scan', { key: tenant.key, body: { site_id: tenant.siteId } })).status,
      ).toBe(201);
      const refused = await api.call('POST', '/api/agent/scan', { key: tenant.key, body: { site_id: tenant.siteId } });
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatch(/max_scans_per_month/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await api.call('GET', '/api/agent/scans', { key: tenant.key })).body.pagination.total).toBe(1);
    } finally {
      await api.close();
    }
  });

  it('counts the month in UTC', () => {
    expect(monthOf(new Date('2026-11-30T23:59:59.999Z'))).toBe('2026-11');
    expect(monthOf(new Date('2026-12-31T23:30:00.000-01:00'))).toBe('2027-01');
    expect(secondsUntilNextMonth(new Date('2026-11-30T23:59:00.000Z'))).toBe(60);
    expect(secondsUntilNextMonth(new Date('2026-12-31T23:59:59.000Z'))).toBe(1);
  });
});

describe('key caps', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  const capped = () => ({
    db: api.db,
    config: {
      ...api.config,
      MAX_ACTIVE_KEYS_PER_USER: 2,
      MAX_ACTIVE_KEYS_PER_TENANT: 3,
      MAX_KEYS_CREATED_PER_USER_PER_DAY: 4,
    },
  });
  const newKey = (userId: string) =>
    admin.createKey(capped(), { user_id: userId, name: 'k', permissions: ['read_scans'] });
  const newUser = (tenantId: string, email: string) => admin.createUser(capped(), { tenant_id: tenantId, email });

  it('caps active keys per user and per tenant, and keys created per user per day', async () => {
    const tenant = await admin.createTenant(
      { db: api.db, config: api.config },
      {
        name: 'Caps',
        plan: 'pro',
      },
    );
    const user = await newUser(tenant.id, 'caps@example.nl');
    const first = await newKey(user.id);
    await newKey(user.id);
    await expect(newKey(user.id)).rejects.toThrow(/Maximaal 2 actieve sleutels per gebruiker/);
    await admin.revokeKey({ db: api.db, config: api.config }, { key_id: first.key_id });
    const replacement = await newKey(user.id);
    await admin.revokeKey({ db: api.db, config: api.config }, { key_id: replacement.key_id });
    const fourth = await newKey(user.id);
    await admin.revokeKey({ db: api.db, config: api.config }, { key_id: fourth.key_id });
    await expect(newKey(user.id)).rejects.toThrow(/Maximaal 4 nieuwe sleutels per gebruiker per dag/);

    const colleague = await newUser(tenant.id, 'collega@example.nl');
    await newKey(colleague.id);
    await newKey(colleague.id);
    const third = await newUser(tenant.id, 'derde@example.nl');
    await expect(newKey(third.id)).rejects.toThrow(/Maximaal 3 actieve sleutels per account/);
  });
});
