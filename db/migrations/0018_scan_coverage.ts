import type { Kysely } from 'kysely';

// What each scan's tests covered (one entry per test and subject, as JSON: the scan detail shows it
// whole and the lifecycle reads it only while storing the scan), and why a scan reached no page.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('scans').addColumn('coverage', 'text').execute();
  await db.schema.alterTable('scans').addColumn('unreachable', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('scans').dropColumn('unreachable').execute();
  await db.schema.alterTable('scans').dropColumn('coverage').execute();
}
