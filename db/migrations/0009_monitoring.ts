import { sql, type Kysely } from 'kysely';

// Scheduled scans and jobs that several workers share: a site's schedule, the scan's trigger, the
// plan's minimum interval, scan jobs claimed with a lease, and the worker holding a delivery.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('scans')
    .addColumn('trigger', 'text', (c) => c.notNull().defaultTo('api'))
    .execute();
  await db.schema.alterTable('sites').addColumn('scan_interval_hours', 'integer').execute();
  await db.schema.alterTable('sites').addColumn('next_scan_at', 'text').execute();
  await db.schema
    .alterTable('sites')
    .addColumn('scan_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('sites_next_scan')
    .on('sites')
    .columns(['next_scan_at'])
    .where(sql.ref('next_scan_at'), 'is not', null)
    .execute();
  await db.schema
    .alterTable('plans')
    .addColumn('min_scan_interval_hours', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.updateTable('plans').set({ min_scan_interval_hours: 24 }).where('tier', '=', 'free').execute();
  await db.schema.alterTable('webhook_deliveries').addColumn('claimed_by', 'text').execute();
  await db.schema
    .createTable('scan_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('due_at', 'text', (c) => c.notNull())
    .addColumn('run_after', 'text', (c) => c.notNull())
    .addColumn('claimed_by', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reason', 'text')
    .addColumn('scan_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('scan_jobs_due').on('scan_jobs').columns(['status', 'run_after']).execute();
  await db.schema.createIndex('scan_jobs_site').on('scan_jobs').columns(['site_id', 'created_at']).execute();
}
