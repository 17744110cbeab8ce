import type { DB } from './database.ts';
import { preparedQuery } from './prepared-query.ts';

export type UsageMetric = 'api_calls' | 'scans';

/** Adds `amount` to a tenant's counter for the period and returns the new count, atomically. */
const increment = preparedQuery((db, a: { tenantId: string; period: string; metric: UsageMetric; amount: number }) =>
  db
    .insertInto('usage_counters')
    .values({ tenant_id: a.tenantId, period: a.period, metric: a.metric, count: a.amount })
    .onConflict((oc) =>
      oc
        .columns(['tenant_id', 'period', 'metric'])
        .doUpdateSet((eb) => ({ count: eb('usage_counters.count', '+', a.amount) })),
    )
    .returning('count'),
);

export async function incrementUsage(
  db: DB,
  tenantId: string,
  period: string,
  metric: UsageMetric,
  amount = 1,
): Promise<number> {
  const [row] = await increment(db, { tenantId, period, metric, amount });
  return row!.count;
}

/** A tenant's stored count for the period (0 before its first call). */
export async function readUsage(db: DB, tenantId: string, period: string, metric: UsageMetric): Promise<number> {
  const row = await db
    .selectFrom('usage_counters')
    .select('count')
    .where('tenant_id', '=', tenantId)
    .where('period', '=', period)
    .where('metric', '=', metric)
    .executeTakeFirst();
  return row?.count ?? 0;
}
