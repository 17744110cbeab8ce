import { findKeyByHash } from '../db/api-keys.ts';
import type { DB } from '../db/database.ts';
import { hashApiKey, isWellFormedApiKey } from './api-keys.ts';
import { PERMISSIONS, type Permission } from '../domain/vocabulary.ts';

/** Who is calling: an active key of an unblocked user in an active tenant. */
export interface Principal {
  keyId: string;
  keyName: string;
  tenantId: string;
  userId: string;
  permissions: Permission[];
  rateLimit: number;
  plan: { tier: string; maxApiCallsPerMonth: number; maxScansPerMonth: number };
}

export async function authenticate(db: DB, key: string): Promise<Principal | null> {
  if (!isWellFormedApiKey(key)) return null;
  const hash = hashApiKey(key);
  // The secret itself is never compared: the unique index finds the row by the key's SHA-256, so
  // response time says nothing about how much of a guessed key was right.
  const row = await findKeyByHash(db, hash);
  if (!row) return null;
  if (row.revoked_at || row.user_blocked_at || row.tenant_suspended_at) return null;
  const granted = JSON.parse(row.permissions) as string[];
  return {
    keyId: row.id,
    keyName: row.name,
    tenantId: row.tenant_id,
    userId: row.user_id,
    permissions: PERMISSIONS.filter((p) => granted.includes(p)),
    rateLimit: row.rate_limit,
    plan: { tier: row.plan_tier, maxApiCallsPerMonth: row.max_api_calls_per_month, maxScansPerMonth: row.max_scans_per_month },
  };
}

/** The key of an "Authorization: Bearer <key>" header, or null. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match ? match[1]! : null;
}
