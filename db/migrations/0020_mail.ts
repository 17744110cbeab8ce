import type { Kysely } from 'kysely';

// internet.nl's mail test: the domain a site's mail is tested on (null: its registrable domain, '':
// off), each scan's result as JSON (DNS evidence and SMTP state; the report is computed on read), and
// the SMTP results per MX host, shared by every tenant for SCANNER_SMTP_CACHE_TTL.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sites').addColumn('mail_domain', 'text').execute();
  await db.schema.alterTable('scans').addColumn('mail', 'text').execute();
  await db.schema
    .createTable('smtp_results')
    .addColumn('host', 'text', (col) => col.primaryKey())
    .addColumn('result', 'text', (col) => col.notNull())
    .addColumn('tested_at', 'text', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('smtp_results').execute();
  await db.schema.alterTable('scans').dropColumn('mail').execute();
  await db.schema.alterTable('sites').dropColumn('mail_domain').execute();
}
