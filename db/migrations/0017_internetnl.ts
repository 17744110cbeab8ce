import type { Kysely } from 'kysely';

// internet.nl's website test of each scan (IPv6, DNSSEC, TLS, RPKI with their subtests and scores),
// as JSON: the scan detail shows it whole and nothing queries inside it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('scans').addColumn('internetnl', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('scans').dropColumn('internetnl').execute();
}
