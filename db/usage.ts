import type { DB } from './database.ts';

export type UsageMetric = 'api_calls' | 'scans';

/** Adds `amount` to a tenant's counter for the period and returns the new count, atomically. */
export async function incrementUsage(db: DB, tenantId: string, period: string, metric: UsageMetric, amount = 1): Promise<number> {
  const row = await db
    .insertInto('usage_counters')
    .values({ tenant_id: tenantId, period, metric, count: amount })
    .onConflict((oc) => oc.columns(['tenant_id', 'period', 'metric']).doUpdateSet((eb) => ({ count: eb('usage_counters.count', '+', amount) })))
    .returning('count')
    .executeTakeFirstOrThrow();
  return row.count;
}

/** A tenant's stored count for the period (0 before its first call). */
export async function readUsage(db: DB, tenantId: string, period: string, metric: UsageMetric): Promise<number> {
  const row = await db.selectFrom('usage_counters').select('count').where('tenant_id', '=', tenantId).where('period', '=', period).where('metric', '=', metric).executeTakeFirst();
  return row?.count ?? 0;
}
