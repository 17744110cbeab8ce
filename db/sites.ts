import { randomUUID } from 'node:crypto';
import type { SitePlatform } from '../domain/vocabulary.ts';
import type { DB } from './database.ts';

export async function insertSite(db: DB, tenantId: string, name: string, url: string, now: string) {
  const site = {
    id: randomUUID(),
    tenant_id: tenantId,
    name,
    url,
    detected_platform: null,
    created_at: now,
  };
  await db.insertInto('sites').values(site).execute();
  return site;
}

export async function findSite(db: DB, tenantId: string, id: string) {
  return db.selectFrom('sites').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

/** A site of any tenant, for operators. */
export async function findSiteAnyTenant(db: DB, id: string) {
  return db.selectFrom('sites').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countSites(db: DB, tenantId: string): Promise<number> {
  const row = await db
    .selectFrom('sites')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', tenantId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface SiteFilters {
  platform?: SitePlatform;
}

/** A site with its latest scan (by the scans_tenant_site_time index), or null fields without one. */
function sitesWithLatestScan(db: DB, tenantId: string) {
  return db
    .selectFrom('sites')
    .select([
      'sites.id',
      'sites.name',
      'sites.url',
      'sites.detected_platform',
      'sites.created_at',
      'sites.scan_interval_hours',
      'sites.next_scan_at',
      'sites.mail_domain',
      'sites.max_pages',
      'sites.include_paths',
      'sites.exclude_paths',
    ])
    .select((eb) => {
      const latest = () =>
        eb
          .selectFrom('scans')
          .whereRef('scans.site_id', '=', 'sites.id')
          .where('scans.tenant_id', '=', tenantId)
          .orderBy('scans.scanned_at', 'desc')
          .orderBy('scans.id', 'desc')
          .limit(1);
      return [
        latest().select('scans.id').as('latest_scan_id'),
        latest().select('scans.score').as('latest_score'),
        latest().select('scans.grade').as('latest_grade'),
        latest().select('scans.scanned_at').as('latest_scanned_at'),
      ];
    })
    .where('sites.tenant_id', '=', tenantId);
}

/** A page of the tenant's sites, oldest first, with the total; all of them without a page. */
export async function listSites(
  db: DB,
  tenantId: string,
  filters: SiteFilters,
  page?: { limit: number; offset: number },
) {
  let count = db
    .selectFrom('sites')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', tenantId);
  let rows = sitesWithLatestScan(db, tenantId);
  if (filters.platform) {
    count = count.where('detected_platform', '=', filters.platform);
    rows = rows.where('sites.detected_platform', '=', filters.platform);
  }
  const total = Number((await count.executeTakeFirstOrThrow()).n);
  const ordered = rows.orderBy('sites.created_at', 'asc').orderBy('sites.id', 'asc');
  const found = await (page ? ordered.limit(page.limit).offset(page.offset) : ordered).execute();
  return { rows: found, total };
}

export async function findSiteWithLatestScan(db: DB, tenantId: string, siteId: string) {
  return sitesWithLatestScan(db, tenantId).where('sites.id', '=', siteId).executeTakeFirst();
}

export type SiteWithLatestScan = NonNullable<Awaited<ReturnType<typeof findSiteWithLatestScan>>>;

/** A site's crawl settings; a field left out stays as it is. */
export async function setSiteCrawl(
  db: DB,
  tenantId: string,
  siteId: string,
  settings: { max_pages?: number; include_paths?: string[]; exclude_paths?: string[] },
): Promise<void> {
  const changes = {
    ...(settings.max_pages !== undefined ? { max_pages: settings.max_pages } : {}),
    ...(settings.include_paths !== undefined ? { include_paths: JSON.stringify(settings.include_paths) } : {}),
    ...(settings.exclude_paths !== undefined ? { exclude_paths: JSON.stringify(settings.exclude_paths) } : {}),
  };
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('sites').set(changes).where('tenant_id', '=', tenantId).where('id', '=', siteId).execute();
}
