import { findKeyByHash } from '../db/api-keys.ts';
import type { DB } from '../db/database.ts';
import type { Actor } from '../domain/actor.ts';
import { PERMISSIONS, type PlanTier } from '../domain/vocabulary.ts';
import { hashApiKey, isWellFormedApiKey } from './api-keys.ts';

export interface PlanLimits {
  tier: PlanTier;
  maxApiCallsPerMonth: number;
  maxScansPerMonth: number;
}

/** An agent calling with an API key: an active key of an unblocked user in an active tenant. */
export interface ApiKeyPrincipal extends Actor {
  actor: { kind: 'api_key'; id: string };
  keyName: string;
  /** Requests per minute this key may make. */
  rateLimit: number;
  plan: PlanLimits;
}

export async function authenticateKey(db: DB, key: string): Promise<ApiKeyPrincipal | null> {
  if (!isWellFormedApiKey(key)) return null;
  // The secret itself is never compared: the unique index finds the row by the key's SHA-256, so
  // response time says nothing about how much of a guessed key was right.
  const row = await findKeyByHash(db, hashApiKey(key));
  if (!row) return null;
  if (row.revoked_at || row.user_blocked_at || row.tenant_suspended_at) return null;
  const granted: unknown = JSON.parse(row.permissions);
  return {
    tenantId: row.tenant_id,
    actor: { kind: 'api_key', id: row.id },
    permissions: PERMISSIONS.filter((p) => Array.isArray(granted) && granted.includes(p)),
    keyName: row.name,
    rateLimit: row.rate_limit,
    plan: { tier: row.plan_tier, maxApiCallsPerMonth: row.max_api_calls_per_month, maxScansPerMonth: row.max_scans_per_month },
  };
}
