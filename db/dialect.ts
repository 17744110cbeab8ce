import { PostgresAdapter, type Kysely, type SelectQueryBuilder } from 'kysely';

/** Which engine a Kysely instance talks to; only db/ asks, routers and services never do. */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Whether a database location is a PostgreSQL connection URL rather than a SQLite file path. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//.test(location);
}

/**
 * Locks the selected job rows on PostgreSQL and skips those another worker holds, so concurrent
 * claimers split the queue instead of waiting on each other; SQLite has a single writer already.
 */
export function skipLockedRows<DB, TB extends keyof DB, O>(
  db: Kysely<any>,
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return isPostgres(db) ? query.forUpdate().skipLocked() : query;
}
