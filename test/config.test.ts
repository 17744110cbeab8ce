import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../infra/config.ts';

const run = promisify(execFile);

describe('configuration from the environment', () => {
  it('has working defaults for a zero-configuration start', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      SCANNER_ALLOW_PRIVATE_TARGETS: false,
      WEBHOOK_RETRY_SCHEDULE: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      WEBHOOK_POLL_INTERVAL: 1_000,
      WEBHOOK_DISABLE_AFTER: 50,
      IP_RATE_LIMIT_PER_MINUTE: 300,
      TRUST_PROXY: false,
      MAX_ACTIVE_KEYS_PER_USER: 10,
      MAX_ACTIVE_KEYS_PER_TENANT: 50,
      MAX_KEYS_CREATED_PER_USER_PER_DAY: 20,
    });
    expect(config.DATABASE_PATH).toMatch(/data\/scanner\.db$/);
    expect(config).toMatchObject({
      WORKERS: true,
      SCHEDULER_POLL_INTERVAL: 30_000,
      SCHEDULER_CONCURRENCY: 2,
      SCAN_FAILURE_ALERT_AFTER: 3,
      WEBHOOK_LEASE: 60_000,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
  });

  it('takes PostgreSQL and Redis by URL, and requires a shared SECRETS_KEY with PostgreSQL', () => {
    const key = Buffer.alloc(32, 1).toString('base64');
    expect(
      loadConfig({
        DATABASE_URL: 'postgres://app:geheim@db:5432/scanner',
        SECRETS_KEY: key,
        REDIS_URL: 'redis://cache:6379',
      }),
    ).toMatchObject({ DATABASE_URL: 'postgres://app:geheim@db:5432/scanner', REDIS_URL: 'redis://cache:6379' });
    expect(() => loadConfig({ DATABASE_URL: 'postgres://app@db/scanner' })).toThrow(
      /SECRETS_KEY: required with DATABASE_URL/,
    );
    expect(() => loadConfig({ DATABASE_URL: 'mysql://db/scanner', SECRETS_KEY: key })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ REDIS_URL: 'cache:6379' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ WORKERS: 'misschien' })).toThrow(/WORKERS/);
  });

  it("takes the scanner's name servers as ip or ip:port, comma-separated", () => {
    expect(loadConfig({}).SCANNER_DNS_SERVERS).toBeUndefined();
    expect(
      loadConfig({ SCANNER_DNS_SERVERS: '192.0.2.53, 127.0.0.1:5353,[2001:db8::53]:53,2001:db8::1' })
        .SCANNER_DNS_SERVERS,
    ).toEqual(['192.0.2.53', '127.0.0.1:5353', '[2001:db8::53]:53', '2001:db8::1']);
  });

  it.each([
    [{ PORT: 'abc' }, /PORT/],
    [{ SCANNER_ALLOW_PRIVATE_TARGETS: 'yes' }, /SCANNER_ALLOW_PRIVATE_TARGETS/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ WEBHOOK_RETRY_SCHEDULE: '5s,soon' }, /WEBHOOK_RETRY_SCHEDULE/],
    [{ SCANNER_DNS_SERVERS: 'dns.example.nl' }, /SCANNER_DNS_SERVERS/],
    [{ SCANNER_DNS_SERVERS: '127.0.0.1:99999' }, /SCANNER_DNS_SERVERS/],
  ])('rejects %j with a message naming the variable', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('stops the service with one clear line and exit code 1 on a bad value', async () => {
    const failure = await run(process.execPath, ['dist/server/main.js'], {
      env: { ...process.env, PORT: 'abc' },
    }).catch((error) => error);
    expect(failure.code).toBe(1);
    expect(failure.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^Invalid environment variable PORT/)]);
  });
});
