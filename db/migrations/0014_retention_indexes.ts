import type { Kysely } from 'kysely';

// Retention (db/retention.ts) looks rows up by what refers to them and by age; without these each
// batch would read the whole table.
const INDEXES: Array<[name: string, table: string, columns: string[]]> = [
  ['findings_scan', 'findings', ['scan_id']],
  ['scan_jobs_scan', 'scan_jobs', ['scan_id']],
  ['webhook_messages_created', 'webhook_messages', ['created_at']],
  ['webhook_deliveries_message', 'webhook_deliveries', ['message_id', 'status']],
  ['webhook_attempts_time', 'webhook_attempts', ['attempted_at']],
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, table, columns] of INDEXES) await db.schema.createIndex(name).on(table).columns(columns).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of INDEXES) await db.schema.dropIndex(name).execute();
}
