import type { z } from 'zod';
import type { KeyCreateInput, KeyRevokeInput } from '../routers/keys/schemas.ts';
import { randomUUID } from 'node:crypto';
import { countKeys, insertApiKey, listApiKeysOfTenant, revokeApiKey } from '../db/api-keys.ts';
import type { DB } from '../db/database.ts';
import { findTenant, findUser } from '../db/tenancy.ts';
import { assertPermission, type Actor } from '../domain/actor.ts';
import { Conflict, Forbidden, NotFound, TooManyRequests } from '../domain/errors.ts';
import type { Permission } from '../domain/vocabulary.ts';
import { generateApiKey } from '../infra/api-key-format.ts';
import type { Config } from '../infra/config.ts';
import { isoNow, nowOf, type ServiceDeps } from './deps.ts';

export interface KeyCaps {
  activePerUser: number;
  activePerTenant: number;
  createdPerUserPerDay: number;
}

export function keyCaps(
  config: Pick<Config, 'MAX_ACTIVE_KEYS_PER_USER' | 'MAX_ACTIVE_KEYS_PER_TENANT' | 'MAX_KEYS_CREATED_PER_USER_PER_DAY'>,
): KeyCaps {
  return {
    activePerUser: config.MAX_ACTIVE_KEYS_PER_USER,
    activePerTenant: config.MAX_ACTIVE_KEYS_PER_TENANT,
    createdPerUserPerDay: config.MAX_KEYS_CREATED_PER_USER_PER_DAY,
  };
}

export interface KeyRequest {
  name: string;
  permissions: readonly Permission[];
  rateLimit: number;
}

async function enforceKeyCaps(db: DB, userId: string, tenantId: string, caps: KeyCaps, now: number): Promise<void> {
  const startOfDay = `${new Date(now).toISOString().slice(0, 10)}T00:00:00.000Z`;
  const [activeOfUser, activeOfTenant, createdToday] = await Promise.all([
    countKeys(db, { userId, activeOnly: true }),
    countKeys(db, { tenantId, activeOnly: true }),
    countKeys(db, { userId, createdSince: startOfDay }),
  ]);
  if (activeOfUser >= caps.activePerUser)
    throw new Conflict(`Maximaal ${caps.activePerUser} actieve sleutels per gebruiker: trek eerst een sleutel in.`);
  if (activeOfTenant >= caps.activePerTenant)
    throw new Conflict(`Maximaal ${caps.activePerTenant} actieve sleutels per account: trek eerst een sleutel in.`);
  if (createdToday >= caps.createdPerUserPerDay) {
    throw new TooManyRequests(
      `Maximaal ${caps.createdPerUserPerDay} nieuwe sleutels per gebruiker per dag: probeer het na 00:00 UTC opnieuw.`,
      secondsUntilMidnightUtc(now),
    );
  }
}

function secondsUntilMidnightUtc(now: number): number {
  const midnight = new Date(now);
  midnight.setUTCHours(24, 0, 0, 0);
  return Math.max(1, Math.ceil((midnight.getTime() - now) / 1000));
}

/**
 * Issues a key bound to a user and their tenant: refused for a blocked user or a suspended tenant
 * (docs/spec.md) and beyond the caps. The returned `key` is the only time the key string exists outside
 * its holder. The dashboard and the admin CLI both come here.
 */
export async function issueKey(db: DB, userId: string, request: KeyRequest, caps: KeyCaps, now: number) {
  const user = await findUser(db, userId);
  if (!user) throw new NotFound('Gebruiker');
  if (user.blocked_at) throw new Forbidden('Deze gebruiker is geblokkeerd en kan geen sleutels aanmaken.');
  const tenant = await findTenant(db, user.tenant_id);
  if (tenant?.suspended_at) throw new Forbidden('Dit account is opgeschort en kan geen sleutels aanmaken.');
  await enforceKeyCaps(db, user.id, user.tenant_id, caps, now);
  const permissions = [...new Set(request.permissions)];
  const generated = generateApiKey();
  const row = {
    id: randomUUID(),
    tenant_id: user.tenant_id,
    user_id: user.id,
    name: request.name.trim(),
    key_hash: generated.hash,
    key_prefix: generated.prefix,
    permissions: JSON.stringify(permissions),
    rate_limit: request.rateLimit,
    created_at: new Date(now).toISOString(),
    revoked_at: null,
    last_used_at: null,
  };
  await insertApiKey(db, row);
  return {
    key_id: row.id,
    key: generated.key,
    name: row.name,
    permissions,
    rate_limit: row.rate_limit,
    created_at: row.created_at,
  };
}

/** A person creates a key for themselves in the dashboard. */
export async function createApiKey(deps: ServiceDeps, actor: Actor, input: z.infer<typeof KeyCreateInput>) {
  assertPermission(actor, 'write_config');
  const request: KeyRequest = { name: input.name, permissions: input.permissions, rateLimit: input.rate_limit };
  return issueKey(deps.db, actor.actor.id, request, keyCaps(deps.config), nowOf(deps));
}

/** The tenant's keys, newest first, with who holds them; never the key or its hash. */
export async function listApiKeys(deps: ServiceDeps, actor: Actor) {
  assertPermission(actor, 'read_config');
  return (await listApiKeysOfTenant(deps.db, actor.tenantId)).map((k) => ({
    key_id: k.id,
    name: k.name,
    prefix: k.key_prefix,
    permissions: JSON.parse(k.permissions) as Permission[],
    rate_limit: k.rate_limit,
    user_email: k.user_email,
    created_at: k.created_at,
    last_used_at: k.last_used_at,
    revoked_at: k.revoked_at,
  }));
}

/** Revokes one of the tenant's active keys; the next request with it answers 401. */
export async function revokeKey(deps: ServiceDeps, actor: Actor, input: z.infer<typeof KeyRevokeInput>) {
  assertPermission(actor, 'write_config');
  if (!(await revokeApiKey(deps.db, input.key_id, isoNow(deps), actor.tenantId))) throw new NotFound('Actieve sleutel');
  return { key_id: input.key_id, revoked: true as const };
}
