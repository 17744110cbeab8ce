import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase } from './postgres.ts';

export interface TestDatabase {
  /** What openDatabase takes: a SQLite file path or a postgres:// URL. */
  location: string;
  /** The environment that points the service or the admin CLI at it. */
  env: Record<string, string>;
  drop: () => Promise<void>;
}

/** One fixed key for PostgreSQL, where secrets cannot live beside a database file. */
const TEST_SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');

/**
 * An empty database for one test file: a SQLite file in a temporary directory, or, in the postgres
 * project (vitest.config.ts), a fresh database on the run's PostgreSQL server.
 */
export async function freshDatabase(name: string): Promise<TestDatabase> {
  const server = process.env.TEST_POSTGRES_URL;
  if (server) {
    const created = await createDatabase(server);
    return {
      location: created.url,
      env: { DATABASE_URL: created.url, SECRETS_KEY: TEST_SECRETS_KEY },
      drop: created.drop,
    };
  }
  const dir = mkdtempSync(join(tmpdir(), `scanner-${name}-`));
  const location = join(dir, `${name}.db`);
  return {
    location,
    env: { DATABASE_PATH: location },
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}
