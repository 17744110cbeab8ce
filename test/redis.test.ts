import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigratedDatabase } from '../db/database.ts';
import { buildApp } from '../server/app.ts';
import { databaseLocation, loadConfig } from '../infra/config.ts';
import { seedTenant, startApi, type TestApi } from './support/api.ts';
import { requireRedisOrSkip, startRedis, type TestRedis } from './support/redis.ts';

// Two API instances on one database share a key's per-minute limit through Redis (REDIS_URL).
const withRedis = requireRedisOrSkip();

describe.skipIf(!withRedis)('rate limits shared through Redis', () => {
  let redis: TestRedis;
  let first: TestApi;
  let second: { url: string; close: () => Promise<void> };

  beforeAll(async () => {
    redis = await startRedis();
    first = await startApi({ REDIS_URL: redis.url });
    // A second instance: its own process state, the same database and Redis.
    const config = loadConfig({
      ...first.dbEnv,
      LOG_LEVEL: 'silent',
      SCANNER_ALLOW_PRIVATE_TARGETS: 'true',
      IP_RATE_LIMIT_PER_MINUTE: '100000',
      REDIS_URL: redis.url,
      WORKERS: 'false',
    });
    const db = await openMigratedDatabase(databaseLocation(config));
    const app = await buildApp({ db, config });
    second = {
      url: await app.listen({ port: 0, host: '127.0.0.1' }),
      close: async () => {
        await app.close();
        await db.destroy();
      },
    };
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await redis?.stop();
  });

  it("never lets more than a key's rate_limit through in a window, over both instances together", async () => {
    const tenant = await seedTenant(first.db, 'https://gedeeld.example/', { rateLimit: 5 });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const base = i % 2 === 0 ? first.url : second.url;
      statuses.push(
        (await fetch(`${base}/api/agent/sites`, { headers: { authorization: `Bearer ${tenant.key}` } })).status,
      );
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
    const refused = await fetch(`${second.url}/api/agent/sites`, {
      headers: { authorization: `Bearer ${tenant.key}` },
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('counts a /trpc batch call by call in Redis: a batch that does not fit in what is left of the window is refused whole', async () => {
    const tenant = await seedTenant(first.db, 'https://gedeelde-batch.example/', { rateLimit: 5 });
    const batch = (base: string, calls: number) =>
      fetch(
        `${base}/trpc/${Array(calls).fill('sites.list').join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(Object.fromEntries(Array.from({ length: calls }, (_, i) => [i, {}]))))}`,
        {
          headers: { authorization: `Bearer ${tenant.key}` },
        },
      );
    const fits = await batch(first.url, 3);
    expect(fits.status).toBe(200);
    expect(fits.headers.get('x-ratelimit-remaining')).toBe('2');
    // Three more do not fit in the two left, counted on the other instance.
    const refused = await batch(second.url, 3);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('keeps counting while the requests arrive at both instances at once', async () => {
    const tenant = await seedTenant(first.db, 'https://gelijktijdig.example/', { rateLimit: 7 });
    const requests = Array.from({ length: 30 }, (_, i) =>
      fetch(`${i % 2 ? first.url : second.url}/api/agent/sites`, {
        headers: { authorization: `Bearer ${tenant.key}` },
      }),
    );
    const statuses = (await Promise.all(requests)).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(7);
  });

  it('stops a tenant at max_api_calls_per_month over both instances together, before either has stored its count', async () => {
    const tenant = await seedTenant(first.db, 'https://maandquotum.example/', { plan: 'free' });
    await first.db.updateTable('plans').set({ max_api_calls_per_month: 4 }).where('tier', '=', 'free').execute();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const response = await fetch(`${i % 2 ? first.url : second.url}/api/agent/sites`, {
        headers: { authorization: `Bearer ${tenant.key}` },
      });
      statuses.push(response.status);
      if (response.status === 429)
        expect(((await response.json()) as { error: string }).error).toMatch(/max_api_calls_per_month/);
    }
    // Each instance alone would have let four through: its own count plus what was stored.
    expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
    expect(statuses.slice(4).every((s) => s === 429)).toBe(true);
  });
});
