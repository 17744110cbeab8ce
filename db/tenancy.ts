import { randomUUID } from 'node:crypto';
import { defaultRuleRow } from '../domain/notification-defaults.ts';
import type { DB } from './database.ts';
import type { Selectable } from 'kysely';
import type { PlansTable } from './schema.ts';
import type { PlanTier, Role } from '../domain/vocabulary.ts';

export async function planByTier(db: DB, tier: PlanTier): Promise<Selectable<PlansTable> | undefined> {
  return db.selectFrom('plans').selectAll().where('tier', '=', tier).executeTakeFirst();
}

export async function planOfTenant(db: DB, tenantId: string): Promise<Selectable<PlansTable>> {
  return db
    .selectFrom('plans')
    .innerJoin('tenants', 'tenants.plan_id', 'plans.id')
    .selectAll('plans')
    .where('tenants.id', '=', tenantId)
    .executeTakeFirstOrThrow();
}

/** A new tenant, with the notification rule every tenant starts with ("Standaard"). */
export async function insertTenant(db: DB, name: string, planId: string, now: string) {
  const tenant = { id: randomUUID(), name, plan_id: planId, suspended_at: null, created_at: now };
  await db.insertInto('tenants').values(tenant).execute();
  await db
    .insertInto('notification_rules')
    .values(defaultRuleRow(randomUUID(), tenant.id, now))
    .execute();
  return tenant;
}

export async function findTenant(db: DB, id: string) {
  return db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function suspendTenant(db: DB, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('tenants')
    .set({ suspended_at: now })
    .where('id', '=', id)
    .where('suspended_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function insertUser(
  db: DB,
  tenantId: string,
  email: string,
  now: string,
  account: { role?: Role; passwordHash?: string | null; isStaff?: boolean } = {},
) {
  const user = {
    id: randomUUID(),
    tenant_id: tenantId,
    email,
    blocked_at: null,
    created_at: now,
    role: account.role ?? 'owner',
    password_hash: account.passwordHash ?? null,
    is_staff: account.isStaff ? 1 : 0,
  };
  await db.insertInto('users').values(user).execute();
  return user;
}

export async function findUser(db: DB, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUserByEmail(db: DB, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function blockUser(db: DB, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ blocked_at: now })
    .where('id', '=', id)
    .where('blocked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function unblockUser(db: DB, id: string): Promise<void> {
  await db.updateTable('users').set({ blocked_at: null }).where('id', '=', id).execute();
}

export async function unsuspendTenant(db: DB, id: string): Promise<void> {
  await db.updateTable('tenants').set({ suspended_at: null }).where('id', '=', id).execute();
}

export async function setUserRole(db: DB, id: string, role: Role): Promise<void> {
  await db.updateTable('users').set({ role }).where('id', '=', id).execute();
}

/** The people of a tenant with their role, for the team page. */
export async function teamOfTenant(db: DB, tenantId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'role', 'blocked_at', 'created_at'])
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
}

/** Every tenant with its plan, state and number of people (for the service's team). */
export async function tenantsOverview(db: DB) {
  return db
    .selectFrom('tenants')
    .innerJoin('plans', 'plans.id', 'tenants.plan_id')
    .leftJoin('users', 'users.tenant_id', 'tenants.id')
    .select((eb) => [
      'tenants.id',
      'tenants.name',
      'plans.tier as plan',
      'tenants.suspended_at',
      'tenants.created_at',
      eb.fn.count<number>('users.id').as('users'),
    ])
    .groupBy(['tenants.id', 'tenants.name', 'plans.tier', 'tenants.suspended_at', 'tenants.created_at'])
    .orderBy('tenants.created_at', 'asc')
    .orderBy('tenants.id', 'asc')
    .execute();
}

/** Every tenant with its plan tier, oldest first (for operators). */
export async function listTenants(db: DB) {
  return db
    .selectFrom('tenants')
    .innerJoin('plans', 'plans.id', 'tenants.plan_id')
    .select(['tenants.id', 'tenants.name', 'plans.tier as plan', 'tenants.suspended_at', 'tenants.created_at'])
    .orderBy('tenants.created_at', 'asc')
    .orderBy('tenants.id', 'asc')
    .execute();
}

export async function listUsersOfTenant(db: DB, tenantId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'blocked_at', 'created_at'])
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
}
