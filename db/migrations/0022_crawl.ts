import { type Kysely, sql } from 'kysely';

// A bounded crawl of verified sites (docs/scanner.md, "Pages"): each site's pages per scan and path
// rules, each plan's cap, what each scan crawled, and where each finding occurs. Existing sites
// keep scanning their start page alone (max_pages 1).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('sites')
    .addColumn('max_pages', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('sites')
    .addColumn('include_paths', 'text', (col) => col.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .alterTable('sites')
    .addColumn('exclude_paths', 'text', (col) => col.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .alterTable('plans')
    .addColumn('max_pages_per_scan', 'integer', (col) => col.notNull().defaultTo(25))
    .execute();
  await sql`UPDATE plans SET max_pages_per_scan = 10 WHERE tier = 'free'`.execute(db);
  await db.schema.alterTable('scans').addColumn('crawl', 'text').execute();
  await db.schema.alterTable('scans').addColumn('pages', 'text').execute();
  await db.schema.alterTable('findings').addColumn('affected_urls', 'text').execute();
  await db.schema.alterTable('scan_findings').addColumn('endpoint', 'text').execute();
  await db.schema.alterTable('scan_findings').addColumn('affected_urls', 'text').execute();
  await db.schema.alterTable('scan_findings').addColumn('affected_count', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['affected_count', 'affected_urls', 'endpoint'])
    await db.schema.alterTable('scan_findings').dropColumn(column).execute();
  await db.schema.alterTable('findings').dropColumn('affected_urls').execute();
  for (const column of ['pages', 'crawl']) await db.schema.alterTable('scans').dropColumn(column).execute();
  await db.schema.alterTable('plans').dropColumn('max_pages_per_scan').execute();
  for (const column of ['exclude_paths', 'include_paths', 'max_pages'])
    await db.schema.alterTable('sites').dropColumn(column).execute();
}
