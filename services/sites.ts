import { findSiteWithLatestScan, listSites as listSiteRows, type SiteFilters } from '../db/sites.ts';
import { assertPermission, type Actor } from '../domain/actor.ts';
import { NotFound } from '../domain/errors.ts';
import type { ServiceDeps } from './deps.ts';
import { pageOf, type Page } from './pages.ts';
import { siteView } from './views.ts';

/** A page of the tenant's sites with their latest scan. */
export async function listSites(deps: ServiceDeps, actor: Actor, filters: SiteFilters, page: Page) {
  assertPermission(actor, 'read_scans');
  const { rows, total } = await listSiteRows(deps.db, actor.tenantId, filters, page);
  return { sites: rows.map(siteView), pagination: pageOf(total, page) };
}

/** One site of the tenant; another tenant's site is as absent as a missing one. */
export async function getSite(deps: ServiceDeps, actor: Actor, siteId: string) {
  assertPermission(actor, 'read_scans');
  const site = await findSiteWithLatestScan(deps.db, actor.tenantId, siteId);
  if (!site) throw new NotFound('Site');
  return siteView(site);
}
