import type { DB } from './database.ts';
import { preparedQuery } from './prepared-query.ts';
import type { ApiKeysTable } from './schema.ts';

export async function insertApiKey(db: DB, key: ApiKeysTable): Promise<void> {
  await db.insertInto('api_keys').values(key).execute();
}

const keyByHash = preparedQuery((db, a: { keyHash: string }) =>
  db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .innerJoin('tenants', 'tenants.id', 'api_keys.tenant_id')
    .innerJoin('plans', 'plans.id', 'tenants.plan_id')
    .select([
      'api_keys.id',
      'api_keys.tenant_id',
      'api_keys.user_id',
      'api_keys.name',
      'api_keys.permissions',
      'api_keys.rate_limit',
      'api_keys.revoked_at',
      'users.blocked_at as user_blocked_at',
      'tenants.suspended_at as tenant_suspended_at',
      'plans.tier as plan_tier',
      'plans.max_api_calls_per_month',
      'plans.max_scans_per_month',
    ])
    .where('api_keys.key_hash', '=', a.keyHash),
);

/** The key with the state of its user and tenant, looked up by the key's SHA-256 hash. */
export async function findKeyByHash(db: DB, keyHash: string) {
  return (await keyByHash(db, { keyHash }))[0];
}

/** Revokes an active key; with a tenant, only that tenant's (another tenant's key is not found). */
export async function revokeApiKey(db: DB, id: string, now: string, tenantId?: string): Promise<boolean> {
  let query = db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null);
  if (tenantId !== undefined) query = query.where('tenant_id', '=', tenantId);
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function listApiKeysOfTenant(db: DB, tenantId: string) {
  return db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([
      'api_keys.id',
      'api_keys.name',
      'api_keys.key_prefix',
      'api_keys.permissions',
      'api_keys.rate_limit',
      'api_keys.created_at',
      'api_keys.revoked_at',
      'api_keys.last_used_at',
      'users.email as user_email',
    ])
    .where('api_keys.tenant_id', '=', tenantId)
    .orderBy('api_keys.created_at', 'desc')
    .orderBy('api_keys.id', 'desc')
    .execute();
}

export async function listApiKeysOfUser(db: DB, userId: string) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'name', 'key_prefix', 'permissions', 'rate_limit', 'created_at', 'revoked_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'asc')
    .execute();
}

export async function countKeys(
  db: DB,
  filter: { userId?: string; tenantId?: string; activeOnly?: boolean; createdSince?: string },
): Promise<number> {
  let query = db.selectFrom('api_keys').select((eb) => eb.fn.countAll<number>().as('n'));
  if (filter.userId) query = query.where('user_id', '=', filter.userId);
  if (filter.tenantId) query = query.where('tenant_id', '=', filter.tenantId);
  if (filter.activeOnly) query = query.where('revoked_at', 'is', null);
  if (filter.createdSince) query = query.where('created_at', '>=', filter.createdSince);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

const keyUse = preparedQuery((db, a: { id: string; at: string }) =>
  db.updateTable('api_keys').set({ last_used_at: a.at }).where('id', '=', a.id),
);

export async function markKeyUsed(db: DB, id: string, at: string): Promise<void> {
  await keyUse(db, { id, at });
}
