import type { DB } from './database.ts';
import type { ApiKeysTable } from './schema.ts';

export async function insertApiKey(db: DB, key: ApiKeysTable): Promise<void> {
  await db.insertInto('api_keys').values(key).execute();
}

/** The key with the state of its user and tenant, looked up by the key's SHA-256 hash. */
export async function findKeyByHash(db: DB, keyHash: string) {
  return db
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
    .where('api_keys.key_hash', '=', keyHash)
    .executeTakeFirst();
}

export async function revokeApiKey(db: DB, id: string): Promise<boolean> {
  const result = await db.updateTable('api_keys').set({ revoked_at: new Date().toISOString() }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function listApiKeysOfUser(db: DB, userId: string) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'name', 'key_prefix', 'permissions', 'rate_limit', 'created_at', 'revoked_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'asc')
    .execute();
}

export async function countKeys(db: DB, filter: { userId?: string; tenantId?: string; activeOnly?: boolean; createdSince?: string }): Promise<number> {
  let query = db.selectFrom('api_keys').select((eb) => eb.fn.countAll<number>().as('n'));
  if (filter.userId) query = query.where('user_id', '=', filter.userId);
  if (filter.tenantId) query = query.where('tenant_id', '=', filter.tenantId);
  if (filter.activeOnly) query = query.where('revoked_at', 'is', null);
  if (filter.createdSince) query = query.where('created_at', '>=', filter.createdSince);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}
