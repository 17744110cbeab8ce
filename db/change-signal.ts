import { sql } from 'kysely';
import type { DB } from './database.ts';
import { isPostgres } from './dialect.ts';

/**
 * A value that changes whenever anything has been committed to the database: by another connection
 * (the admin CLI, another process: SQLite's data_version) or by this one (total_changes()). Both
 * are read from memory, without I/O. Null on PostgreSQL, which has no such counter: callers then do
 * not cache.
 */
export async function changeVersion(db: DB): Promise<string | null> {
  if (isPostgres(db)) return null;
  const { rows } = await sql<{ version: number; changes: number }>`SELECT (SELECT data_version FROM pragma_data_version) AS version, total_changes() AS changes`.execute(db);
  const row = rows[0];
  return row ? `${row.version}:${row.changes}` : null;
}
