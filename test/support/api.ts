import { join } from 'node:path';
import type { Clock } from '../../infra/clock.ts';
import { afterAll, beforeAll } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { openMigratedDatabase, type DB } from '../../db/database.ts';
import { buildApp } from '../../server/app.ts';
import { databaseLocation, loadConfig, type Config } from '../../infra/config.ts';
import { freshDatabase } from './database.ts';
import * as admin from '../../services/admin.ts';
import { startWorkers } from '../../services/workers.ts';
import { PERMISSIONS, type Permission, type PlanTier } from '../../domain/vocabulary.ts';
import { importVulnerabilityFile } from '../../services/vulnerability-data.ts';

export const SHIPPED_RETIRE = join(import.meta.dirname, '..', '..', 'vulndata', 'retire', 'jsrepository-v5.json.gz');

export interface TestApi {
  url: string;
  app: FastifyInstance;
  db: DB;
  config: Config;
  /** The SQLite file; with the postgres test project, the database URL. */
  dbPath: string;
  /** The environment that points another process or the admin CLI at the same database. */
  dbEnv: Record<string, string>;
  call: (
    method: string,
    path: string,
    options?: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ) => Promise<{ status: number; body: any; headers: Headers }>;
  close: () => Promise<void>;
}

/** A real server on loopback over a fresh SQLite file. */
export async function startApi(
  env: Record<string, string> = {},
  options: {
    logStream?: NodeJS.WritableStream;
    webRoot?: string;
    workersClock?: Clock;
    /** Keep the shipped vulnerability data as shipped (dated, so possibly stale) instead of importing it as of today. */
    shippedVulnerabilityData?: boolean;
  } = {},
): Promise<TestApi> {
  // A given DATABASE_PATH belongs to the test (restart tests reopen it); otherwise a fresh file, or
  // a fresh database on the run's PostgreSQL server in the postgres project (vitest.config.ts).
  const fresh = env.DATABASE_PATH ? null : await freshDatabase('api');
  const dbPath = fresh?.location ?? env.DATABASE_PATH!;
  const dbEnv = fresh?.env ?? { DATABASE_PATH: dbPath };
  // Tests send many requests from one address; limit tests set their own values.
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    SCANNER_ALLOW_PRIVATE_TARGETS: 'true',
    IP_RATE_LIMIT_PER_MINUTE: '100000',
    ...dbEnv,
    ...env,
  });
  const db = await openMigratedDatabase(databaseLocation(config));
  // As an operator without internet would: the shipped retire.js file imported as current (its data
  // date passes VULNDATA_UNUSABLE_AFTER_DAYS within months, and every scan would then be partial).
  if (!options.shippedVulnerabilityData && !env.DATABASE_PATH)
    await importVulnerabilityFile({ db }, { source: 'retire', file: SHIPPED_RETIRE, date: new Date().toISOString() });
  const app = await buildApp({ db, config, logStream: options.logStream, webRoot: options.webRoot });
  // The API and its workers in one process, as npm start runs them.
  const workers = await startWorkers({ db, config, clock: options.workersClock }, app.log);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: address,
    app,
    db,
    config,
    dbPath,
    dbEnv,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.key) headers.authorization = `Bearer ${options.key}`;
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(`${address}${path}`, { method, headers, body });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // Non-JSON bodies (the docs page) stay text.
      }
      return { status: response.status, body: parsed, headers: response.headers };
    },
    async close() {
      await app.close();
      await workers.stop();
      await db.destroy();
      await fresh?.drop();
    },
  };
}

/** The settings of a service started with no environment, for service calls made beside a test's API. */
export const TEST_CONFIG: Config = loadConfig({ LOG_LEVEL: 'silent' });

export interface Tenant {
  tenantId: string;
  userId: string;
  key: string;
  keyId: string;
  siteId: string;
}

/** A tenant with a user, a key (all permissions unless given) and one site. */
export async function seedTenant(
  db: DB,
  siteUrl: string,
  options: {
    permissions?: Permission[];
    plan?: PlanTier;
    rateLimit?: number;
    /**
     * The operator vouches for the site (audited), so its scans run every test; false leaves it
     * unverified, and its scans passive (docs/security.md).
     */
    verified?: boolean;
  } = {},
): Promise<Tenant> {
  const tenant = await admin.createTenant(
    { db, config: TEST_CONFIG },
    {
      name: `Tenant ${Math.random().toString(36).slice(2, 8)}`,
      plan: options.plan ?? 'pro',
    },
  );
  const user = await admin.createUser(
    { db, config: TEST_CONFIG },
    {
      tenant_id: tenant.id,
      email: `u${Math.random().toString(36).slice(2, 10)}@example.nl`,
    },
  );
  const key = await admin.createKey(
    { db, config: TEST_CONFIG },
    {
      user_id: user.id,
      name: 'test agent',
      permissions: options.permissions ?? [...PERMISSIONS],
      rate_limit: options.rateLimit,
    },
  );
  const site = await admin.createSite(
    { db, config: TEST_CONFIG },
    {
      tenant_id: tenant.id,
      name: 'Testsite',
      url: siteUrl,
    },
  );
  if (options.verified !== false)
    await admin.vouchForSite(
      { db, config: TEST_CONFIG },
      { site_id: site.id, operator: 'test-suite', reason: 'fixture van de testsuite' },
    );
  return { tenantId: tenant.id, userId: user.id, key: key.key, keyId: key.key_id, siteId: site.id };
}

/** An API with one tenant for a test file: started before its tests, closed after them. */
export function apiWithTenant(siteUrl = 'https://example.nl/'): { api: TestApi; tenant: Tenant } {
  const state = {} as { api: TestApi; tenant: Tenant };
  beforeAll(async () => {
    state.api = await startApi();
    state.tenant = await seedTenant(state.api.db, siteUrl);
  });
  afterAll(() => state.api.close());
  return state;
}
