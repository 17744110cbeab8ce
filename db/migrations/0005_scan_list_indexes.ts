import { sql, type Kysely } from 'kysely';

// The scan list orders by scanned_at DESC, id DESC; with id in the indexes a page is read from the
// index alone, so deep offsets skip index entries instead of table rows.
export async function up(db: Kysely<any>): Promise<void> {
  for (const name of ['scans_tenant_time', 'scans_tenant_site_time', 'scans_tenant_grade_time'])
    await db.schema.dropIndex(name).execute();
  await sql`CREATE INDEX scans_tenant_time ON scans (tenant_id, scanned_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX scans_tenant_site_time ON scans (tenant_id, site_id, scanned_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX scans_tenant_grade_time ON scans (tenant_id, grade, scanned_at DESC, id DESC)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ['scans_tenant_time', 'scans_tenant_site_time', 'scans_tenant_grade_time'])
    await db.schema.dropIndex(name).execute();
  await db.schema.createIndex('scans_tenant_time').on('scans').columns(['tenant_id', 'scanned_at']).execute();
  await db.schema
    .createIndex('scans_tenant_site_time')
    .on('scans')
    .columns(['tenant_id', 'site_id', 'scanned_at'])
    .execute();
  await db.schema
    .createIndex('scans_tenant_grade_time')
    .on('scans')
    .columns(['tenant_id', 'grade', 'scanned_at'])
    .execute();
}
