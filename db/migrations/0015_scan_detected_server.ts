import type { Kysely } from 'kysely';

// The web server or edge platform that answered the scan (nginx, apache, ..., or null), so the scan
// detail can order the fixes for it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('scans').addColumn('detected_server', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('scans').dropColumn('detected_server').execute();
}
