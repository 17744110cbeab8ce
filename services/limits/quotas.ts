import type { DB } from '../../db/database.ts';
import { incrementUsage, type UsageMetric } from '../../db/usage.ts';
import type { Principal } from '../auth.ts';
import { ApiError } from '../../domain/errors.ts';

/** The calendar month (UTC) a moment falls in, as "YYYY-MM". */
export function monthOf(moment: Date): string {
  return moment.toISOString().slice(0, 7);
}

/** Whole seconds until the next calendar month starts (UTC). */
export function secondsUntilNextMonth(moment: Date): number {
  const next = Date.UTC(moment.getUTCFullYear(), moment.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - moment.getTime()) / 1000));
}

const QUOTA_NAMES: Record<UsageMetric, string> = {
  api_calls: 'API-aanroepen per maand (max_api_calls_per_month)',
  scans: 'scans per maand (max_scans_per_month)',
};

/** Counts units of a monthly plan quota; over the quota it throws 429 with Retry-After until the month turns. */
export async function consumeQuota(db: DB, principal: Principal, metric: UsageMetric, amount = 1, now = new Date()): Promise<void> {
  const limit = metric === 'scans' ? principal.plan.maxScansPerMonth : principal.plan.maxApiCallsPerMonth;
  const used = await incrementUsage(db, principal.tenantId, monthOf(now), metric, amount);
  if (used > limit) {
    const retryAfter = secondsUntilNextMonth(now);
    throw new ApiError(
      'TOO_MANY_REQUESTS',
      `Quotum bereikt: het ${principal.plan.tier}-abonnement staat ${limit} ${QUOTA_NAMES[metric]} toe. Probeer het opnieuw over ${retryAfter} seconden, na de maandwissel (UTC), of upgrade het abonnement.`,
      { 'retry-after': String(retryAfter) },
    );
  }
}
