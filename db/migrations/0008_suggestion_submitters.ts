import { sql, type Kysely } from 'kysely';

// A suggestion is submitted by an API key today and by a dashboard user or the platform tomorrow, so
// it records who submitted it as (kind, id) instead of a required api_key_id. SQLite cannot drop a
// NOT NULL constraint in place: the table is rebuilt, keeping every row.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('suggestions_next')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('submitted_by_kind', 'text', (c) => c.notNull())
    .addColumn('submitted_by_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('diff', 'text')
    .addColumn('file_path', 'text')
    .addColumn('metadata', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('review_notes', 'text')
    .addColumn('reviewed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await sql`INSERT INTO suggestions_next (id, tenant_id, submitted_by_kind, submitted_by_id, type, title, description, diff, file_path, metadata, status, review_notes, reviewed_at, created_at)
    SELECT id, tenant_id, 'api_key', api_key_id, type, title, description, diff, file_path, metadata, status, review_notes, reviewed_at, created_at FROM suggestions`.execute(
    db,
  );
  await db.schema.dropTable('suggestions').execute();
  await db.schema.alterTable('suggestions_next').renameTo('suggestions').execute();
  await db.schema
    .createIndex('suggestions_tenant')
    .on('suggestions')
    .columns(['tenant_id', 'status', 'created_at'])
    .execute();
}
