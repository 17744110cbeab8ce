import type { Kysely } from 'kysely';

// Proof of control before intrusive scanning (docs/security.md): one token per tenant, the names a
// tenant has shown control of (one row per method and name), the last outcome of each method per
// site, operators' vouching with who, why and when, and whether each scan was passive. Sites already
// stored start unverified: no claim exists for them.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tenants').addColumn('verification_token', 'text').execute();
  await db.schema
    .alterTable('scans')
    .addColumn('passive', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('control_claims')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('tenant_id', 'text', (col) => col.notNull())
    .addColumn('method', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('origin', 'text')
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('verified_at', 'text', (col) => col.notNull())
    .addColumn('confirmed_at', 'text', (col) => col.notNull())
    .addColumn('checked_at', 'text', (col) => col.notNull())
    .addColumn('lost_at', 'text')
    .addColumn('reason', 'text')
    .addColumn('until', 'text')
    .execute();
  await db.schema
    .createIndex('control_claims_tenant_method_name')
    .on('control_claims')
    .columns(['tenant_id', 'method', 'name'])
    .unique()
    .execute();
  await db.schema
    .createTable('verification_checks')
    .addColumn('site_id', 'text', (col) => col.notNull())
    .addColumn('method', 'text', (col) => col.notNull())
    .addColumn('tenant_id', 'text', (col) => col.notNull())
    .addColumn('outcome', 'text', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('checked_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('verification_checks_pk', ['site_id', 'method'])
    .execute();
  await db.schema
    .createTable('operator_audit')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('at', 'text', (col) => col.notNull())
    .addColumn('operator', 'text', (col) => col.notNull())
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('tenant_id', 'text', (col) => col.notNull())
    .addColumn('site_id', 'text')
    .addColumn('reason', 'text')
    .addColumn('until', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('operator_audit').execute();
  await db.schema.dropTable('verification_checks').execute();
  await db.schema.dropTable('control_claims').execute();
  await db.schema.alterTable('scans').dropColumn('passive').execute();
  await db.schema.alterTable('tenants').dropColumn('verification_token').execute();
}
