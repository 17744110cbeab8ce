import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

// PostgreSQL only: whatever can change the answer of a key lookup (a revoked key, a blocked user, a
// suspended tenant, a plan change) sends NOTIFY key_changes when it commits, so the service can
// keep valid keys in memory and still refuse a revoked one on the next request (db/change-signal.ts).
// SQLite needs none of this: its data_version tells any connection that another one committed.
const WATCHED: Array<[table: string, events: string]> = [
  ['api_keys', 'UPDATE OF revoked_at, permissions, rate_limit, user_id, tenant_id OR DELETE'],
  ['users', 'UPDATE OF blocked_at, tenant_id OR DELETE'],
  ['tenants', 'UPDATE OF suspended_at, plan_id OR DELETE'],
  ['plans', 'UPDATE OR DELETE'],
];

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`CREATE FUNCTION notify_key_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('key_changes', TG_TABLE_NAME); RETURN NULL; END $$`.execute(
    db,
  );
  for (const [table, events] of WATCHED) {
    await sql
      .raw(
        `CREATE TRIGGER ${table}_key_change AFTER ${events} ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION notify_key_change()`,
      )
      .execute(db);
  }
}
