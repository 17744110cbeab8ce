import type { z } from 'zod';
import type { SiteCreateInput, SiteGetInput, SiteListInput } from '../routers/sites/schemas.ts';
import { countSites, findSiteWithLatestScan, insertSite, listSites as listSiteRows } from '../db/sites.ts';
import { planOfTenant } from '../db/tenancy.ts';
import { assertPermission, type Actor } from '../domain/actor.ts';
import { Conflict, Invalid, NotFound } from '../domain/errors.ts';
import { isoNow, type ServiceDeps } from './deps.ts';
import { pageOf } from './pagination.ts';
import { siteView } from './views.ts';
import { verificationsOfTenant } from './verification.ts';

/** A page of the tenant's sites with their latest scan. */
export async function listSites(deps: ServiceDeps, actor: Actor, input: z.infer<typeof SiteListInput>) {
  assertPermission(actor, 'read_scans');
  const { rows, total } = await listSiteRows(deps.db, actor.tenantId, { platform: input.platform }, input);
  const verification = await verificationsOfTenant(deps, actor.tenantId);
  return { sites: rows.map((row) => siteView(row, verification(row.url))), pagination: pageOf(total, input) };
}

/** One site of the tenant; another tenant's site is as absent as a missing one. */
export async function getSite(deps: ServiceDeps, actor: Actor, input: z.infer<typeof SiteGetInput>) {
  assertPermission(actor, 'read_scans');
  return shownSite(deps, actor.tenantId, input.site_id);
}

/** A site of the tenant as the API shows it, with its verification. */
export async function shownSite(deps: ServiceDeps, tenantId: string, siteId: string) {
  const site = await findSiteWithLatestScan(deps.db, tenantId, siteId);
  if (!site) throw new NotFound('Site');
  return siteView(site, (await verificationsOfTenant(deps, tenantId))(site.url));
}

/** The dashboard's "add a site": the new site as GET /sites/{site_id} shows it. */
export async function addAndShowSite(deps: ServiceDeps, actor: Actor, input: z.infer<typeof SiteCreateInput>) {
  const site = await addSite(deps, actor, input);
  return shownSite(deps, actor.tenantId, site.id);
}

/** Adds a site to the tenant, within the plan's number of sites. */
export async function addSite(deps: ServiceDeps, actor: Actor, input: { name: string; url: string }) {
  assertPermission(actor, 'write_config');
  // The routers' webUrl schema has checked it.
  const url = new URL(input.url);
  const name = input.name.trim();
  if (!name) throw new Invalid('name: geef de site een naam.');
  const plan = await planOfTenant(deps.db, actor.tenantId);
  if ((await countSites(deps.db, actor.tenantId)) >= plan.max_sites) {
    throw new Conflict(
      `Het ${plan.tier}-abonnement staat maximaal ${plan.max_sites} site(s) toe: upgrade het abonnement om er meer toe te voegen.`,
    );
  }
  return insertSite(deps.db, actor.tenantId, name, url.href, isoNow(deps));
}
