import type { Kysely } from 'kysely';

// The checks a scan could not run (a failing check, or probes cut off by the deadline), as a JSON
// array: the result then says which part of the score is missing instead of silently scoring less.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('scans')
    .addColumn('failed_checks', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}
