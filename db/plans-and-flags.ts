import type { FeatureFlag } from '../domain/vocabulary.ts';
import type { DB } from './database.ts';

export async function listPlans(db: DB) {
  return db.selectFrom('plans').selectAll().orderBy('monthly_price_eur', 'asc').execute();
}

export async function listFeatureFlags(db: DB) {
  return db.selectFrom('feature_flags').selectAll().orderBy('key', 'asc').execute();
}

export async function findFeatureFlag(db: DB, key: FeatureFlag) {
  return db.selectFrom('feature_flags').selectAll().where('key', '=', key).executeTakeFirst();
}

export async function updateFeatureFlag(
  db: DB,
  key: FeatureFlag,
  changes: { enabled?: boolean; rollout_percentage?: number },
): Promise<boolean> {
  const set = {
    ...(changes.enabled === undefined ? {} : { enabled: changes.enabled ? 1 : 0 }),
    ...(changes.rollout_percentage === undefined ? {} : { rollout_percentage: changes.rollout_percentage }),
  };
  if (Object.keys(set).length === 0) return (await findFeatureFlag(db, key)) !== undefined;
  const result = await db.updateTable('feature_flags').set(set).where('key', '=', key).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Service-wide counts for the configuration endpoint. */
export async function serviceStats(db: DB) {
  const [sites, platforms, tenants, active] = await Promise.all([
    db
      .selectFrom('sites')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('sites')
      .select(['detected_platform', (eb) => eb.fn.countAll<number>().as('n')])
      .where('detected_platform', 'is not', null)
      .groupBy('detected_platform')
      .execute(),
    db
      .selectFrom('tenants')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('tenants')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('suspended_at', 'is', null)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    total_sites: Number(sites.n),
    platforms: Object.fromEntries(platforms.map((p) => [p.detected_platform!, Number(p.n)])),
    total_tenants: Number(tenants.n),
    active_tenants: Number(active.n),
  };
}
