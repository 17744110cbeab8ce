import { sql } from 'kysely';
import type { DB } from './database.ts';
import type { ExpiryWarningsTable } from './schema.ts';

/** The joined site's latest scan id, as a correlated subquery (scans_tenant_site_time serves it). */
const LATEST_SCAN = sql<string>`(SELECT s.id FROM scans s WHERE s.tenant_id = sites.tenant_id AND s.site_id = sites.id ORDER BY s.scanned_at DESC, s.id DESC LIMIT 1)`;

/** Each site's items as its latest scan saw them, soonest end first. */
const latestItems = (db: DB) =>
  db
    .selectFrom('sites')
    .innerJoin('scan_expiries', 'scan_expiries.site_id', 'sites.id')
    .select([
      'scan_expiries.kind',
      'scan_expiries.subject',
      'scan_expiries.not_after',
      'scan_expiries.scan_id',
      'sites.tenant_id',
      'sites.id as site_id',
      'sites.name as site_name',
    ])
    .where('scan_expiries.scan_id', '=', LATEST_SCAN)
    .orderBy('scan_expiries.not_after');

/** The dated items the latest scan of one site saw, soonest end first. */
export async function expiriesOfSite(db: DB, tenantId: string, siteId: string) {
  return latestItems(db).where('sites.tenant_id', '=', tenantId).where('sites.id', '=', siteId).execute();
}

/** Every site's items (from its latest scan) that end at or before `until`: what the sweeper warns about. */
export async function expiriesEndingBy(db: DB, until: string) {
  return latestItems(db).where('scan_expiries.not_after', '<=', until).execute();
}

/** Records a warning unless it was sent already; true when this call recorded it. */
export async function claimExpiryWarning(db: DB, warning: ExpiryWarningsTable): Promise<boolean> {
  const result = await db
    .insertInto('expiry_warnings')
    .values(warning)
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** The smallest threshold already warned about for an item, or null. */
export async function lowestWarnedThreshold(
  db: DB,
  item: Pick<ExpiryWarningsTable, 'site_id' | 'kind' | 'subject' | 'not_after'>,
): Promise<number | null> {
  const row = await db
    .selectFrom('expiry_warnings')
    .select((eb) => eb.fn.min<number>('threshold_days').as('lowest'))
    .where('site_id', '=', item.site_id)
    .where('kind', '=', item.kind)
    .where('subject', '=', item.subject)
    .where('not_after', '=', item.not_after)
    .executeTakeFirst();
  return row?.lowest ?? null;
}
