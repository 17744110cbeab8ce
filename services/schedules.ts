import type { z } from 'zod';
import type { SiteUpdateInput } from '../routers/sites/schemas.ts';
import { countScheduleFailure, moveNextScan, setSiteSchedule } from '../db/schedules.ts';
import { findSite, setSiteCrawl } from '../db/sites.ts';
import { planOfTenant } from '../db/tenancy.ts';
import { assertPermission, type Actor } from '../domain/actor.ts';
import { Invalid, NotFound } from '../domain/errors.ts';
import { nowOf, type ServiceDeps } from './deps.ts';
import { shownSite } from './sites.ts';
import { storeMailDomain } from './mail.ts';

const HOUR = 3_600_000;

/**
 * A spread-out moment within the first part of an interval: sites scheduled together (a bulk
 * change, a restart at midnight) do not all come due in the same second.
 */
export function jitteredAfter(from: number, intervalHours: number, random = Math.random): string {
  const spread = Math.min(intervalHours * HOUR * 0.1, 15 * 60_000);
  return new Date(from + intervalHours * HOUR + Math.floor(random() * spread)).toISOString();
}

/** The first scheduled scan: soon (within minutes), spread out, not a whole interval away. */
function firstScanAt(now: number, intervalHours: number, random = Math.random): string {
  return new Date(now + Math.floor(random() * Math.min(intervalHours * HOUR * 0.1, 5 * 60_000))).toISOString();
}

/**
 * Changes a site's settings: its scan schedule (every `scan_interval_hours`, or off with null; the
 * plan may require a longer interval; a change starts the failure count again), its mail domain
 * (a domain, or null for off) and its crawl (`max_pages` within the plan's cap, include and exclude
 * paths). A field left out stays as it is.
 */
export async function updateSite(deps: ServiceDeps, actor: Actor, input: z.infer<typeof SiteUpdateInput>) {
  const { site_id: siteId, scan_interval_hours: intervalHours, mail_domain: mailDomain } = input;
  assertPermission(actor, 'write_config');
  const site = await findSite(deps.db, actor.tenantId, siteId);
  if (!site) throw new NotFound('Site');
  // Every setting is judged before any is stored: a refused request changes nothing.
  const plan = await planOfTenant(deps.db, actor.tenantId);
  if (intervalHours !== undefined && intervalHours !== null && intervalHours < plan.min_scan_interval_hours) {
    throw new Invalid(
      `scan_interval_hours: het ${plan.tier}-abonnement staat minimaal elke ${plan.min_scan_interval_hours} uur een geplande scan toe.`,
    );
  }
  if (input.max_pages !== undefined && input.max_pages > plan.max_pages_per_scan)
    throw new Invalid(
      `max_pages: het ${plan.tier}-abonnement staat hoogstens ${plan.max_pages_per_scan} pagina's per scan toe.`,
    );
  if (intervalHours !== undefined) {
    const unchanged =
      intervalHours !== null && site.scan_interval_hours === intervalHours && site.next_scan_at !== null;
    const nextScanAt =
      intervalHours === null ? null : unchanged ? site.next_scan_at : firstScanAt(nowOf(deps), intervalHours);
    await setSiteSchedule(deps.db, actor.tenantId, siteId, intervalHours, nextScanAt);
  }
  if (mailDomain !== undefined) await storeMailDomain(deps, actor.tenantId, siteId, mailDomain);
  await setSiteCrawl(deps.db, actor.tenantId, siteId, input);
  return shownSite(deps, actor.tenantId, siteId);
}

/**
 * After a failed scheduled scan: count it and back off, doubling the wait with each consecutive
 * failure up to a week. Returns the number of consecutive failures and the next try.
 */
export async function backOffSchedule(
  deps: ServiceDeps,
  site: { id: string; scan_interval_hours: number | null },
  now: number,
): Promise<{ failures: number; nextScanAt: string }> {
  const failures = await countScheduleFailure(deps.db, site.id, true);
  const hours = Math.min((site.scan_interval_hours ?? 24) * 2 ** (failures - 1), 168);
  const nextScanAt = jitteredAfter(now, hours);
  await moveNextScan(deps.db, site.id, nextScanAt);
  return { failures, nextScanAt };
}

/** After a scheduled scan that ran: consecutive failures start again at 0. */
export async function clearScheduleFailures(deps: ServiceDeps, siteId: string): Promise<void> {
  await countScheduleFailure(deps.db, siteId, false);
}

/** After a scan refused by the monthly quota: the next try is when the next period starts. */
export async function postponeToNextPeriod(
  deps: ServiceDeps,
  siteId: string,
  retryAfterSeconds: number,
  now: number,
): Promise<void> {
  await moveNextScan(deps.db, siteId, new Date(now + retryAfterSeconds * 1000).toISOString());
}
