import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type Migration, type MigrationProvider } from 'kysely';
import * as initial from './migrations/0001_initial.ts';
import * as webhookOutbox from './migrations/0002_webhook_outbox.ts';
import * as usageCounters from './migrations/0003_usage_counters.ts';
import * as findingsAtScale from './migrations/0004_findings_at_scale.ts';
import type { Database } from './schema.ts';

export type DB = Kysely<Database>;

/** Migrations are imported statically so they work from any working directory and in bundles. */
const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_webhook_outbox': webhookOutbox,
  '0003_usage_counters': usageCounters,
  '0004_findings_at_scale': findingsAtScale,
};

export const MIGRATION_PROVIDER: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export function openDatabase(path: string): DB {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}

export async function migrate(db: DB): Promise<void> {
  const { error, results } = await new Migrator({ db, provider: MIGRATION_PROVIDER }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`Database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`);
}

/** Opens the database file and brings its schema up to date. */
export async function openMigratedDatabase(path: string): Promise<DB> {
  const db = openDatabase(path);
  await migrate(db);
  return db;
}
