import type { DB } from '../../db/database.ts';
import { incrementUsage, type UsageMetric } from '../../db/usage.ts';
import { QuotaExceeded } from '../../domain/errors.ts';
import type { PlanLimits } from '../auth.ts';

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

/** Counts units of a tenant's monthly plan quota; over the quota it throws QuotaExceeded until the month turns. */
export async function consumeQuota(db: DB, tenantId: string, plan: PlanLimits, metric: UsageMetric, amount = 1, now = new Date()): Promise<void> {
  const limit = metric === 'scans' ? plan.maxScansPerMonth : plan.maxApiCallsPerMonth;
  const used = await incrementUsage(db, tenantId, monthOf(now), metric, amount);
  if (used > limit) {
    const retryAfter = secondsUntilNextMonth(now);
    throw new QuotaExceeded(
      `Quotum bereikt: het ${plan.tier}-abonnement staat ${limit} ${QUOTA_NAMES[metric]} toe. Probeer het opnieuw over ${retryAfter} seconden, na de maandwissel (UTC), of upgrade het abonnement.`,
      retryAfter,
    );
  }
}
