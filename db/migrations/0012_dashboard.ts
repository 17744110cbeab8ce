import type { Kysely } from 'kysely';

// The dashboard: who changed a finding's status, when and why (one row per change, the audit
// trail the findings page shows), and invitations that let a new team member set a password
// through a one-time link.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('finding_status_changes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('finding_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('actor_kind', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    /** The e-mail address or key name at the time of the change: still readable after it is gone. */
    .addColumn('actor_label', 'text', (c) => c.notNull())
    .addColumn('changed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('finding_status_changes_finding')
    .on('finding_status_changes')
    .columns(['finding_id', 'changed_at'])
    .execute();
  await db.schema
    .createTable('invites')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('invited_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text')
    .execute();
  await db.schema.createIndex('invites_tenant').on('invites').columns(['tenant_id', 'created_at']).execute();
}
