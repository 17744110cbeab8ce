import { PostgresAdapter, type Kysely } from 'kysely';

/** Which engine a Kysely instance talks to; only db/ asks, routers and services never do. */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Whether a database location is a PostgreSQL connection URL rather than a SQLite file path. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//.test(location);
}
