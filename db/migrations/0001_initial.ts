import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';

const PLANS = [
  {
    tier: 'free',
    name: 'Free',
    monthly_price_eur: 0,
    max_sites: 1,
    max_api_calls_per_month: 1_000,
    max_scans_per_month: 30,
    features: ['ssl_scan', 'header_scan', 'endpoint_scan', 'api_access'],
  },
  {
    tier: 'pro',
    name: 'Pro',
    monthly_price_eur: 2900,
    max_sites: 10,
    max_api_calls_per_month: 50_000,
    max_scans_per_month: 1_000,
    features: ['ssl_scan', 'header_scan', 'endpoint_scan', 'api_access', 'webhooks', 'suggestions'],
  },
  {
    tier: 'enterprise',
    name: 'Enterprise',
    monthly_price_eur: 19900,
    max_sites: 1_000,
    max_api_calls_per_month: 5_000_000,
    max_scans_per_month: 100_000,
    features: [
      'ssl_scan',
      'header_scan',
      'endpoint_scan',
      'api_access',
      'webhooks',
      'suggestions',
      'priority_support',
      'sla',
    ],
  },
];

const FLAGS = [
  {
    key: 'exposure_probes',
    description: 'Scans controleren blootgestelde bestanden en endpoints (.git, .env, back-ups).',
    enabled: 1,
    rollout_percentage: 100,
  },
  {
    key: 'suggestions',
    description: 'Agents kunnen verbetervoorstellen indienen en bekijken.',
    enabled: 1,
    rollout_percentage: 100,
  },
  {
    key: 'webhooks',
    description: 'Agents kunnen webhooks registreren die meldingen ontvangen.',
    enabled: 1,
    rollout_percentage: 100,
  },
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('plans')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('tier', 'text', (c) => c.notNull().unique())
    .addColumn('monthly_price_eur', 'integer', (c) => c.notNull())
    .addColumn('max_sites', 'integer', (c) => c.notNull())
    .addColumn('max_api_calls_per_month', 'integer', (c) => c.notNull())
    .addColumn('max_scans_per_month', 'integer', (c) => c.notNull())
    .addColumn('features', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('feature_flags')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('rollout_percentage', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('tenants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('plan_id', 'text', (c) => c.notNull().references('plans.id'))
    .addColumn('suspended_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('blocked_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('rate_limit', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_user').on('api_keys').columns(['user_id', 'created_at']).execute();
  await db.schema
    .createTable('sites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('detected_platform', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sites_tenant').on('sites').columns(['tenant_id', 'created_at']).execute();
  await db.schema
    .createTable('scans')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('score', 'integer', (c) => c.notNull())
    .addColumn('grade', 'text', (c) => c.notNull())
    .addColumn('ssl_score', 'integer', (c) => c.notNull())
    .addColumn('headers_score', 'integer', (c) => c.notNull())
    .addColumn('endpoints_score', 'integer', (c) => c.notNull())
    .addColumn('detected_platform', 'text')
    .addColumn('findings_count', 'integer', (c) => c.notNull())
    .addColumn('critical_count', 'integer', (c) => c.notNull())
    .addColumn('high_count', 'integer', (c) => c.notNull())
    .addColumn('medium_count', 'integer', (c) => c.notNull())
    .addColumn('low_count', 'integer', (c) => c.notNull())
    .addColumn('scanned_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('scans_tenant_time').on('scans').columns(['tenant_id', 'scanned_at']).execute();
  await db.schema
    .createIndex('scans_tenant_site_time')
    .on('scans')
    .columns(['tenant_id', 'site_id', 'scanned_at'])
    .execute();
  await db.schema
    .createIndex('scans_tenant_grade_time')
    .on('scans')
    .columns(['tenant_id', 'grade', 'scanned_at'])
    .execute();
  await db.schema
    .createTable('findings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id'))
    .addColumn('scan_id', 'text', (c) => c.notNull().references('scans.id'))
    .addColumn('finding_type', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('severity_rank', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('impact', 'text', (c) => c.notNull())
    .addColumn('remediation', 'text', (c) => c.notNull())
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('actual_value', 'text')
    .addColumn('expected_value', 'text', (c) => c.notNull())
    .addColumn('reference_url', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('resolved_at', 'text')
    .addUniqueConstraint('findings_identity', ['site_id', 'finding_type', 'endpoint'])
    .execute();
  await db.schema
    .createIndex('findings_tenant_order')
    .on('findings')
    .columns(['tenant_id', 'severity_rank', 'created_at'])
    .execute();
  await db.schema
    .createTable('scan_findings')
    .addColumn('scan_id', 'text', (c) => c.notNull().references('scans.id'))
    .addColumn('finding_id', 'text', (c) => c.notNull().references('findings.id'))
    .addColumn('actual_value', 'text')
    .addPrimaryKeyConstraint('scan_findings_pk', ['scan_id', 'finding_id'])
    .execute();
  await db.schema
    .createTable('suggestions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('diff', 'text')
    .addColumn('file_path', 'text')
    .addColumn('metadata', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('review_notes', 'text')
    .addColumn('reviewed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('suggestions_tenant')
    .on('suggestions')
    .columns(['tenant_id', 'status', 'created_at'])
    .execute();
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('last_triggered_at', 'text')
    .addColumn('failure_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_tenant').on('webhooks').columns(['tenant_id', 'created_at']).execute();

  await db
    .insertInto('plans')
    .values(PLANS.map((p) => ({ id: randomUUID(), ...p, features: JSON.stringify(p.features) })))
    .execute();
  await db.insertInto('feature_flags').values(FLAGS).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'webhooks',
    'suggestions',
    'scan_findings',
    'findings',
    'scans',
    'sites',
    'api_keys',
    'users',
    'tenants',
    'feature_flags',
    'plans',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
