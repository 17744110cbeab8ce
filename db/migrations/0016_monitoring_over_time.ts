import type { Kysely } from 'kysely';

// Monitoring over time (docs/monitoring.md): how each scan changed its site's findings (against the
// site's previous scan), the severity each scan saw, status history written by scans as well as
// people, risk acceptances that end, and the dated items (certificates, security.txt) of each scan
// with the expiry warnings already sent for them.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('scans').addColumn('previous_scan_id', 'text').execute();
  await db.schema.alterTable('scan_findings').addColumn('severity', 'text').execute();
  await db.schema
    .createTable('scan_changes')
    .addColumn('scan_id', 'text', (c) => c.notNull())
    .addColumn('finding_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('from_severity', 'text')
    .addColumn('to_severity', 'text')
    .addColumn('from_finding_id', 'text')
    .addPrimaryKeyConstraint('scan_changes_pk', ['scan_id', 'finding_id', 'kind'])
    .execute();
  // Null for a change a person or the platform made; the scan's id for one a scan made.
  await db.schema.alterTable('finding_status_changes').addColumn('scan_id', 'text').execute();
  await db.schema
    .createTable('finding_acceptances')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('finding_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('notice_sent_at', 'text')
    /** When it stopped counting: revoked, replaced by an extension, or run out (the sweeper). */
    .addColumn('ended_at', 'text')
    .execute();
  await db.schema
    .createIndex('finding_acceptances_finding')
    .on('finding_acceptances')
    .columns(['finding_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('finding_acceptances_open')
    .on('finding_acceptances')
    .columns(['ended_at', 'expires_at'])
    .execute();
  await db.schema
    .createTable('scan_expiries')
    .addColumn('scan_id', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('not_after', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('scan_expiries_scan').on('scan_expiries').columns(['scan_id']).execute();
  await db.schema
    .createTable('expiry_warnings')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('not_after', 'text', (c) => c.notNull())
    .addColumn('threshold_days', 'integer', (c) => c.notNull())
    .addColumn('sent_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('expiry_warnings_pk', ['site_id', 'kind', 'subject', 'not_after', 'threshold_days'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('expiry_warnings').execute();
  await db.schema.dropTable('scan_expiries').execute();
  await db.schema.dropTable('finding_acceptances').execute();
  await db.schema.alterTable('finding_status_changes').dropColumn('scan_id').execute();
  await db.schema.dropTable('scan_changes').execute();
  await db.schema.alterTable('scan_findings').dropColumn('severity').execute();
  await db.schema.alterTable('scans').dropColumn('previous_scan_id').execute();
}
