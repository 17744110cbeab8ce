import { enqueueEvents } from '../db/outbox.ts';
import { recordScan, type RecordedScan } from '../db/scans.ts';
import { findSite } from '../db/sites.ts';
import { scanSite, ScanError } from '../scanner/index.ts';
import { nextTurn } from '../scanner/turns.ts';
import type { Config } from './config.ts';
import type { DB } from '../db/database.ts';
import type { Principal } from './auth.ts';
import { ApiError, badRequest, notFound } from '../domain/errors.ts';
import { consumeQuota } from './limits/quotas.ts';
import { scanSlotsFor } from './limits/scan-slots.ts';
import { scansTotal } from './metrics.ts';
import { isFeatureEnabled } from './feature-flags.ts';
import { findingView, scanCreatedView } from './views.ts';

export interface TriggerInput {
  site_id: string;
  url?: string;
}

/**
 * The URL to scan: the site's, or an override on the site's host or one of its subdomains. A site is
 * an origin as far as ports go: the override keeps the site's port or uses its scheme's default, so
 * it cannot reach another service (an admin port) on the customer's server.
 */
export function scanTargetFor(siteUrl: string, override: string | undefined): string {
  if (override === undefined) return siteUrl;
  let url: URL;
  try {
    url = new URL(override);
  } catch {
    throw badRequest('url: ongeldige URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest('url: alleen http:// en https:// zijn toegestaan.');
  const site = new URL(siteUrl);
  if (url.hostname !== site.hostname && !url.hostname.endsWith(`.${site.hostname}`)) {
    throw badRequest(`url: de URL moet op ${site.hostname} of een subdomein daarvan liggen.`);
  }
  if (url.port !== '' && url.port !== site.port) {
    throw badRequest(`url: alleen de poort van de site (${site.port || 'standaard'}) of de standaardpoort van http/https is toegestaan.`);
  }
  return url.href;
}

/** Runs a scan of one of the tenant's sites and stores it with its findings. */
export async function triggerScan(deps: { db: DB; config: Config }, principal: Principal, input: TriggerInput): Promise<RecordedScan> {
  const tenantId = principal.tenantId;
  const site = await findSite(deps.db, tenantId, input.site_id);
  if (!site) throw notFound('Site');
  const target = scanTargetFor(site.url, input.url);
  // A slot first: a scan refused for capacity does not use up the monthly quota.
  const release = scanSlotsFor(deps.config).acquire(tenantId);
  let result;
  try {
    await consumeQuota(deps.db, principal, 'scans').catch((error: unknown) => {
      throw error instanceof ApiError ? error.trpc : error;
    });
    const probeExposures = await isFeatureEnabled(deps.db, 'exposure_probes', tenantId);
    result = await scanSite(target, {
      allowPrivateTargets: deps.config.SCANNER_ALLOW_PRIVATE_TARGETS,
      requestTimeoutMs: deps.config.SCANNER_REQUEST_TIMEOUT,
      deadlineMs: deps.config.SCANNER_DEADLINE,
      probeExposures,
    });
  } catch (error) {
    if (error instanceof ScanError) {
      scansTotal.inc({ grade: 'error' });
      throw badRequest(error.message);
    }
    throw error;
  } finally {
    release();
  }
  scansTotal.inc({ grade: result.grade });
  // Each write transaction starts on its own turn of the event loop, so scans finishing together
  // do not run their transactions back to back in one blocking stretch.
  await nextTurn();
  return deps.db.transaction().execute(async (trx) => {
    const recorded = await recordScan(trx, tenantId, site.id, result);
    await enqueueEvents(trx, tenantId, [
      { type: 'scan_completed', data: scanCreatedView(recorded.scan) },
      ...recorded.opened.map((finding) => ({ type: 'finding_new', data: findingView(finding, site) })),
      ...recorded.resolved.map((finding) => ({ type: 'finding_resolved', data: findingView(finding, site) })),
    ]);
    return recorded;
  });
}
