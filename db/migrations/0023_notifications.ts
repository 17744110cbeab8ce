import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { defaultRuleRow } from '../../domain/notification-defaults.ts';

// Notifications people read (docs/notifications.md): channels (targets encrypted), rules, the
// outbox of messages (one per recipient, a unique dedupe key), digest items waiting for their hour,
// unsubscribes, password resets and sign-up confirmations. Every tenant gets the "Standaard" rule
// (domain/notification-defaults.ts), existing ones here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notification_channels')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('target_hint', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('failure_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('disabled_reason', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('notification_channels_tenant').on('notification_channels').column('tenant_id').execute();
  await db.schema
    .createTable('notification_recipients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('channel_id', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', 'text')
    .addColumn('token_hash', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notification_recipients_channel_address')
    .on('notification_recipients')
    .columns(['channel_id', 'address'])
    .unique()
    .execute();
  await db.schema
    .createTable('notification_rules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('site_ids', 'text')
    .addColumn('min_severity', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('at', 'text')
    .addColumn('rest', 'text')
    .addColumn('channel_ids', 'text', (c) => c.notNull())
    .addColumn('roles', 'text', (c) => c.notNull())
    .addColumn('quiet_hours', 'text')
    .addColumn('critical_bypasses_quiet', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('last_digest_at', 'text')
    .addColumn('last_rest_digest_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('notification_rules_tenant').on('notification_rules').column('tenant_id').execute();
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text')
    .addColumn('rule_id', 'text')
    .addColumn('channel_id', 'text')
    .addColumn('address', 'text')
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('dedupe_key', 'text', (c) => c.notNull().unique())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('claimed_by', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  await db.schema.createIndex('notifications_due').on('notifications').columns(['status', 'next_attempt_at']).execute();
  await db.schema
    .createIndex('notifications_tenant_time')
    .on('notifications')
    .columns(['tenant_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('notification_digest_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('rule_id', 'text', (c) => c.notNull())
    .addColumn('part', 'text', (c) => c.notNull())
    .addColumn('item', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  await db.schema
    .createIndex('notification_digest_items_rule')
    .on('notification_digest_items')
    .columns(['rule_id', 'part', 'sent_at'])
    .execute();
  await db.schema
    .createTable('notification_unsubscribes')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_unsubscribes_pk', ['tenant_id', 'address', 'category'])
    .execute();
  await db.schema
    .createTable('notification_preferences')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('quiet_hours', 'text')
    .addColumn('mutes', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('digest_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_preferences_pk', ['tenant_id', 'address'])
    .execute();
  await db.schema
    .createTable('password_resets')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('signup_confirmations')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('organisation', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // Tenants that exist already get the rule new tenants start with.
  const now = new Date().toISOString();
  const tenants = await db.selectFrom('tenants').select('id').execute();
  for (const { id } of tenants)
    await db
      .insertInto('notification_rules')
      .values(defaultRuleRow(randomUUID(), id, now))
      .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'signup_confirmations',
    'password_resets',
    'notification_preferences',
    'notification_unsubscribes',
    'notification_digest_items',
    'notifications',
    'notification_rules',
    'notification_recipients',
    'notification_channels',
  ])
    await db.schema.dropTable(table).execute();
}
