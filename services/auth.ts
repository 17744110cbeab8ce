import { findKeyByHash } from '../db/api-keys.ts';
import { openChangeSignal, type ChangeSignal } from '../db/change-signal.ts';
import type { DB } from '../db/database.ts';
import type { Actor } from '../domain/actor.ts';
import { ERRORS, Unauthenticated } from '../domain/errors.ts';
import type { ServiceDeps } from './deps.ts';
import { PERMISSIONS, type PlanTier } from '../domain/vocabulary.ts';
import { isWellFormedApiKey } from '../infra/api-key-format.ts';
import { secretDigest } from '../infra/bearer-digest.ts';

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
  const row = await findKeyByHash(db, secretDigest(key));
  if (!row) return null;
  if (row.revoked_at || row.user_blocked_at || row.tenant_suspended_at) return null;
  const granted: unknown = JSON.parse(row.permissions);
  return {
    tenantId: row.tenant_id,
    actor: { kind: 'api_key', id: row.id },
    permissions: PERMISSIONS.filter((p) => Array.isArray(granted) && granted.includes(p)),
    keyName: row.name,
    rateLimit: row.rate_limit,
    plan: {
      tier: row.plan_tier,
      maxApiCallsPerMonth: row.max_api_calls_per_month,
      maxScansPerMonth: row.max_scans_per_month,
    },
  };
}

/**
 * `POST /api/agent/auth`: who the key is, for an agent checking its key before it starts. No actor
 * calls it: the key under test is the input.
 */
export async function validateKey({ db }: ServiceDeps, input: { api_key: string }) {
  const principal = await authenticateKey(db, input.api_key);
  if (!principal) throw new Unauthenticated(ERRORS.invalidKey);
  return {
    authenticated: true as const,
    agent: {
      key_id: principal.actor.id,
      name: principal.keyName,
      permissions: [...principal.permissions],
      rate_limit: principal.rateLimit,
    },
  };
}

/** Keys kept at most; beyond it the cache starts again (guessing keys never fills it: misses are not kept). */
const MAX_CACHED_KEYS = 10_000;

/**
 * authenticateKey with the answers for valid keys kept in memory until the database signals a
 * change that could alter them (db/change-signal.ts): on SQLite any commit, on PostgreSQL a
 * NOTIFY from the key, user, tenant and plan tables. A revocation by the admin CLI in another
 * process, a block or a plan change empties the cache before the next request is answered. Without
 * a signal (PostgreSQL while its LISTEN connection is down) every request looks its key up.
 */
export class CachedKeyLookup {
  private readonly cache = new Map<string, ApiKeyPrincipal>();
  private version: string | null = null;
  private readonly signal: ChangeSignal;

  constructor(private readonly db: DB) {
    this.signal = openChangeSignal(db);
  }

  close(): Promise<void> {
    return this.signal.close();
  }

  /** From the cache for a known key; after the lookup otherwise. */
  async authenticate(key: string): Promise<ApiKeyPrincipal | null> {
    const version = this.signal.version();
    if (version === null) return authenticateKey(this.db, key);
    if (version !== this.version || this.cache.size >= MAX_CACHED_KEYS) {
      this.cache.clear();
      this.version = version;
    }
    const hash = secretDigest(key);
    // Only well-formed keys are cached, so a hit needs no checksum test.
    const cached = this.cache.get(hash);
    if (cached) return cached;
    return authenticateKey(this.db, key).then((principal) => {
      // Kept only if nothing changed while the row was read: it may predate a revocation.
      if (principal && this.signal.version() === version) this.cache.set(hash, principal);
      return principal;
    });
  }
}
