import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  sql,
  type KyselyConfig,
  type Migration,
  type MigrationProvider,
  type PostgresCursor,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresQueryResult,
} from 'kysely';
import pg from 'pg';
import { startCheckpointer, type Checkpointer } from './checkpointer.ts';
import { isPostgresUrl } from './dialect.ts';
import * as initial from './migrations/0001_initial.ts';
import * as webhookOutbox from './migrations/0002_webhook_outbox.ts';
import * as usageCounters from './migrations/0003_usage_counters.ts';
import * as findingsAtScale from './migrations/0004_findings_at_scale.ts';
import * as scanListIndexes from './migrations/0005_scan_list_indexes.ts';
import * as scanCounts from './migrations/0006_scan_counts.ts';
import * as scanFailedChecks from './migrations/0007_scan_failed_checks.ts';
import * as suggestionSubmitters from './migrations/0008_suggestion_submitters.ts';
import * as monitoring from './migrations/0009_monitoring.ts';
import * as accounts from './migrations/0010_accounts.ts';
import * as statementCountTriggers from './migrations/0011_statement_count_triggers.ts';
import * as dashboard from './migrations/0012_dashboard.ts';
import * as keyChangeNotify from './migrations/0013_key_change_notify.ts';
import * as retentionIndexes from './migrations/0014_retention_indexes.ts';
import * as scanDetectedServer from './migrations/0015_scan_detected_server.ts';
import * as monitoringOverTime from './migrations/0016_monitoring_over_time.ts';
import * as internetnl from './migrations/0017_internetnl.ts';
import * as mail from './migrations/0020_mail.ts';
import * as siteVerification from './migrations/0021_site_verification.ts';
import * as crawl from './migrations/0022_crawl.ts';
import * as notifications from './migrations/0023_notifications.ts';
import * as scanCoverage from './migrations/0018_scan_coverage.ts';
import * as vulnerabilityData from './migrations/0019_vulnerability_data.ts';
import type { Database } from './schema.ts';

export type DB = Kysely<Database>;

/** Answers when the database does (readiness); throws when it does not. */
export async function pingDatabase(db: DB): Promise<void> {
  await sql`SELECT 1`.execute(db);
}

/** Migrations are imported statically so they work from any working directory and in bundles. */
const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_webhook_outbox': webhookOutbox,
  '0003_usage_counters': usageCounters,
  '0004_findings_at_scale': findingsAtScale,
  '0005_scan_list_indexes': scanListIndexes,
  '0006_scan_counts': scanCounts,
  '0007_scan_failed_checks': scanFailedChecks,
  '0008_suggestion_submitters': suggestionSubmitters,
  '0009_monitoring': monitoring,
  '0010_accounts': accounts,
  '0011_statement_count_triggers': statementCountTriggers,
  '0012_dashboard': dashboard,
  '0013_key_change_notify': keyChangeNotify,
  '0014_retention_indexes': retentionIndexes,
  '0015_scan_detected_server': scanDetectedServer,
  '0016_monitoring_over_time': monitoringOverTime,
  '0017_internetnl': internetnl,
  '0018_scan_coverage': scanCoverage,
  '0019_vulnerability_data': vulnerabilityData,
  '0020_mail': mail,
  '0021_site_verification': siteVerification,
  '0022_crawl': crawl,
  '0023_notifications': notifications,
};

export const MIGRATION_PROVIDER: MigrationProvider = { getMigrations: async () => MIGRATIONS };

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every query anew; preparing costs more than running most of our
 * queries, so prepared statements are kept per SQL text (least recently used beyond 500 are dropped).
 */
function withStatementCache(sqlite: SQLite.Database, checkpointer?: Checkpointer) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(sql: string): SQLite.Statement {
      let statement = cache.get(sql);
      if (statement) cache.delete(sql);
      else statement = sqlite.prepare(sql);
      cache.set(sql, statement);
      if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      return statement;
    },
    close(): void {
      cache.clear();
      void checkpointer?.stop();
      sqlite.close();
    },
  };
}

const DML = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * Data statements run as named prepared statements: each connection parses and plans a SQL text
 * once and then only binds values, as the SQLite side keeps its prepared statements. The name is
 * a digest of the text, so one name never stands for two texts.
 */
class PreparingClient implements PostgresPoolClient {
  constructor(private readonly client: pg.PoolClient) {}

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query(text: string | PostgresCursor<unknown>, values?: ReadonlyArray<unknown>): unknown {
    // Kysely passes a cursor only to stream(), which nothing here uses.
    if (typeof text !== 'string') throw new Error('streaming queries are not supported');
    const parameters = [...(values ?? [])];
    if (!DML.test(text)) return this.client.query(text, parameters);
    return this.client.query({
      name: `k${createHash('sha1').update(text).digest('hex').slice(0, 20)}`,
      text,
      values: parameters,
    });
  }

  release(): void {
    this.client.release();
  }
}

function withPreparedStatements(pool: pg.Pool): PostgresPool {
  // One wrapper per pooled connection: Kysely keys its connection objects by client.
  const wrapped = new WeakMap<pg.PoolClient, PreparingClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let handle = wrapped.get(client);
      if (!handle) {
        handle = new PreparingClient(client);
        wrapped.set(client, handle);
      }
      return handle;
    },
    end: () => pool.end(),
  };
}

/**
 * PostgreSQL through a pg pool. Integers come back as numbers, as from SQLite: counts are bigint
 * (int8) in PostgreSQL and stay far below 2^53 here.
 */
function openPostgres(url: string, options: OpenOptions): DB {
  pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
  pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
  // An idle client losing its connection (a server restart) must not take the process down.
  pool.on('error', () => {});
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: withPreparedStatements(pool) }),
    log: options.log,
  });
  postgresUrls.set(db, url);
  return db;
}

const postgresUrls = new WeakMap<DB, string>();
const sqliteHandles = new WeakMap<DB, SQLite.Database>();

/** The connection under a SQLite database, for the few reads that must not pay for a query builder (db/ only). */
export const sqliteHandleOf = (db: DB): SQLite.Database | undefined => sqliteHandles.get(db);

/** The connection URL a PostgreSQL database was opened with (for a dedicated LISTEN connection). */
export const postgresUrlOf = (db: DB): string | undefined => postgresUrls.get(db);

export interface OpenOptions {
  log?: KyselyConfig['log'];
  poolSize?: number;
  /** SQLite file: checkpoint the WAL from a worker thread instead of in the commit that fills it (long-running processes). */
  backgroundCheckpoints?: boolean;
}

/** A SQLite file path, or a postgres:// URL for PostgreSQL; the rest of the code does not know which. */
export function openDatabase(path: string, options: OpenOptions = {}): DB {
  if (isPostgresUrl(path)) return openPostgres(path, options);
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // 32 MiB of page cache keeps the hot index pages of a large tenant in memory.
  sqlite.pragma('cache_size = -32768');
  // Gathers planner statistics where they are missing or stale, as SQLite recommends on open;
  // the analysis limit bounds that work to a moment even on a database of millions of rows.
  sqlite.pragma('analysis_limit = 1000');
  sqlite.pragma('optimize = 0x10002');
  const background = options.backgroundCheckpoints && path !== ':memory:';
  // A commit that pushes the WAL past 1,000 pages otherwise checkpoints in place, fsyncs included,
  // and on this synchronous driver that stalls every request in flight.
  if (background) sqlite.pragma('wal_autocheckpoint = 0');
  const checkpointer = background ? startCheckpointer(path) : undefined;
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite, checkpointer) }),
    log: options.log,
  });
  sqliteHandles.set(db, sqlite);
  return db;
}

export async function migrate(db: DB): Promise<void> {
  const { error, results } = await new Migrator({ db, provider: MIGRATION_PROVIDER }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed)
    throw new Error(`Database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`);
}

/** Opens the database (a SQLite file or a postgres:// URL) and brings its schema up to date. */
export async function openMigratedDatabase(path: string, options: OpenOptions = {}): Promise<DB> {
  const db = openDatabase(path, options);
  await migrate(db);
  return db;
}
