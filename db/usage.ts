import type { DB } from './database.ts';

export type UsageMetric = 'api_calls' | 'scans';

/** Adds one to a tenant's counter for the period and returns the new count, atomically. */
export async function incrementUsage(db: DB, tenantId: string, period: string, metric: UsageMetric): Promise<number> {
  const row = await db
    .insertInto('usage_counters')
    .values({ tenant_id: tenantId, period, metric, count: 1 })
    .onConflict((oc) => oc.columns(['tenant_id', 'period', 'metric']).doUpdateSet((eb) => ({ count: eb('usage_counters.count', '+', 1) })))
    .returning('count')
    .executeTakeFirstOrThrow();
  return row.count;
}
