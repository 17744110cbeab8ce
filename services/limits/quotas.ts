import type { DB } from '../../db/database.ts';
import { markKeyUsed } from '../../db/api-keys.ts';
import { incrementUsage, readUsage, type UsageMetric } from '../../db/usage.ts';
import { QuotaExceeded } from '../../domain/errors.ts';
import type { PlanLimits } from '../auth.ts';
import type { CounterStore } from './counter-store.ts';
import { systemClock, type Clock } from '../../infra/clock.ts';

/** The calendar month (UTC) a moment falls in, as "YYYY-MM". */
export function monthOf(moment: Date): string {
  // Runs on every authenticated request: cheaper than formatting the whole ISO string.
  const month = moment.getUTCMonth() + 1;
  return `${moment.getUTCFullYear()}-${month < 10 ? '0' : ''}${month}`;
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

const limitOf = (plan: PlanLimits, metric: UsageMetric) =>
  metric === 'scans' ? plan.maxScansPerMonth : plan.maxApiCallsPerMonth;

/** Throws QuotaExceeded, with Retry-After until the month turns, when `used` is over the plan's limit. */
function assertWithinQuota(plan: PlanLimits, metric: UsageMetric, used: number, now: Date): void {
  const limit = limitOf(plan, metric);
  if (used <= limit) return;
  const retryAfter = secondsUntilNextMonth(now);
  throw new QuotaExceeded(
    `Quotum bereikt: het ${plan.tier}-abonnement staat ${limit} ${QUOTA_NAMES[metric]} toe. Probeer het opnieuw over ${retryAfter} seconden, na de maandwissel (UTC), of upgrade het abonnement.`,
    retryAfter,
  );
}

/** Counts units of a tenant's monthly plan quota in the database at once (scans: each is a write anyway). */
export async function consumeQuota(
  db: DB,
  tenantId: string,
  plan: PlanLimits,
  metric: UsageMetric,
  now: Date,
  amount = 1,
): Promise<void> {
  assertWithinQuota(plan, metric, await incrementUsage(db, tenantId, monthOf(now), metric, amount), now);
}

/**
 * API-call counting without a database write per request: counts gather in memory per tenant and
 * month and are added to the stored counter at most every `flushEveryMs` and when the process
 * stops. Without a shared store the check uses the stored count (read once, refreshed by every
 * flush) plus what is pending, so a quota can be overshot by at most what the other instances
 * accept in one flush interval. With one (Redis), every call is also added to a shared total
 * atomically and checked against it, so instances together stop exactly at the limit.
 */
export class UsageMeter {
  private readonly pending = new Map<
    string,
    { tenantId: string; period: string; metric: UsageMetric; amount: number }
  >();
  private readonly stored = new Map<string, number>();
  /** When each key was last used, stored with the next flush (the dashboard's "last used"). */
  private readonly keysUsed = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: DB,
    private readonly shared?: Pick<CounterStore, 'addToTotal'>,
    flushEveryMs = 1_000,
    private readonly clock: Clock = systemClock,
  ) {
    this.timer = setInterval(() => void this.flush().catch(() => {}), flushEveryMs);
    this.timer.unref();
  }

  /** Counts `amount` API calls; refuses with TooManyRequests beyond the plan's monthly quota. */
  async consume(
    tenantId: string,
    plan: PlanLimits,
    metric: UsageMetric,
    amount = 1,
    now = new Date(this.clock.now()),
  ): Promise<void> {
    const period = monthOf(now);
    const key = `${tenantId}\n${period}\n${metric}`;
    const stored = this.stored.get(key);
    if (stored === undefined) {
      // The month's first call here: read what is stored once (the first reader to answer wins).
      const count = await readUsage(this.db, tenantId, period, metric);
      if (!this.stored.has(key)) this.stored.set(key, count);
      return this.consume(tenantId, plan, metric, amount, now);
    }
    const entry = this.pending.get(key) ?? { tenantId, period, metric, amount: 0 };
    // Refused calls count too, as they always have: a client hammering past its quota stays refused.
    entry.amount += amount;
    this.pending.set(key, entry);
    const local = stored + entry.amount;
    assertWithinQuota(plan, metric, await this.totalOverInstances(key, amount, local, now), now);
  }

  /** With a shared store, the total over all instances; otherwise (or while it is unreachable) this process's own sum. */
  private async totalOverInstances(key: string, amount: number, local: number, now: Date): Promise<number> {
    if (!this.shared?.addToTotal) return local;
    // The total outlives its month by a day, so a late flush cannot restart it.
    const ttlMs = secondsUntilNextMonth(now) * 1000 + 86_400_000;
    return this.shared
      .addToTotal(`usage:${key.replaceAll('\n', ':')}`, amount, local - amount, ttlMs)
      .catch(() => local);
  }

  noteKeyUse(keyId: string, at = this.clock.now()): void {
    this.keysUsed.set(keyId, at);
  }

  /** Adds what is pending to the stored counters; one flush at a time. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const batch = [...this.pending];
      this.pending.clear();
      const used = [...this.keysUsed];
      this.keysUsed.clear();
      for (const [keyId, at] of used) await markKeyUsed(this.db, keyId, new Date(at).toISOString());
      for (const [key, { tenantId, period, metric, amount }] of batch) {
        this.stored.set(key, await incrementUsage(this.db, tenantId, period, metric, amount));
      }
    });
    return this.flushing;
  }

  /** Stops the timer and writes what is pending (at shutdown, before the database closes). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
