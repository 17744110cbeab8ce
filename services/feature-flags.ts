import { createHash } from 'node:crypto';
import type { DB } from '../db/database.ts';
import { findFeatureFlag } from '../db/plans-and-flags.ts';
import { ERRORS, Forbidden } from '../domain/errors.ts';
import type { FeatureFlag } from '../domain/vocabulary.ts';

/** A tenant's stable bucket 0-99 for a flag, so a rollout percentage picks the same tenants every time. */
export function rolloutBucket(flag: string, tenantId: string): number {
  return createHash('sha256').update(`${flag}:${tenantId}`).digest().readUInt32BE(0) % 100;
}

export async function isFeatureEnabled(db: DB, flag: FeatureFlag, tenantId: string): Promise<boolean> {
  const row = await findFeatureFlag(db, flag);
  if (!row?.enabled) return false;
  return rolloutBucket(flag, tenantId) < row.rollout_percentage;
}

/** Throws Forbidden while the flag is off for the tenant. */
export async function assertFeatureEnabled(db: DB, flag: FeatureFlag, tenantId: string): Promise<void> {
  if (!(await isFeatureEnabled(db, flag, tenantId))) throw new Forbidden(ERRORS.featureDisabled(flag));
}
