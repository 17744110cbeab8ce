import { scanSettingsOf } from './scan-settings.ts';
import { mailDomainSetting, mailReportOf, startSmtpPart } from './mail.ts';
import type { z } from 'zod';
import type { ScanGetInput, ScanListInput, ScanTriggerInput } from '../routers/scans/schemas.ts';
import { findingsOfScan } from '../db/findings.ts';
import { enqueueEvents } from '../db/outbox.ts';
import {
  findScan,
  listScans as listScanRows,
  recordScan,
  siteHasScans,
  type RecordedScan,
  type ScanFilters,
} from '../db/scans.ts';
import { recordedChanges } from '../db/scan-changes.ts';
import { findSite } from '../db/sites.ts';
import { planOfTenant } from '../db/tenancy.ts';
import { assertPermission, type Actor } from '../domain/actor.ts';
import { Invalid, NotFound, TargetRefused } from '../domain/errors.ts';
import {
  NOTIFY_EVENTS,
  SEVERITIES,
  type ActorKind,
  type NotifyEvent,
  type ScanTrigger,
  type Severity,
} from '../domain/vocabulary.ts';
import { planScanNotifications, type ScanNotice } from './notifications/plan.ts';
import {
  mailReport,
  scanSite,
  ScanCancelledError,
  ScanError,
  type ScanOptions,
  type ScanResult,
} from '../scanner/index.ts';
import { intrusiveRefusal, type ProofOfControl } from '../scanner/checks/proof-of-control.ts';
import { pagesOfOpenFindings } from '../db/findings.ts';
import { MAX_AFFECTED_URLS } from '../scanner/crawl/page-findings.ts';
import { onePage } from '../scanner/crawl/crawl.ts';
import { fixesFor } from '../scanner/fixes/index.ts';
import { vulnerabilityDataInUse } from './vulnerability-data.ts';
import { proofForScan } from './verification.ts';
import { toSarif } from '../scanner/report/sarif.ts';
import type { InternetNlReport } from '../scanner/report/internetnl.ts';
import type { Coverage } from '../scanner/index.ts';
import type { ScanChanges } from '../domain/scan-comparison.ts';
import { changesOf } from './scan-changes.ts';
import { scoreBreakdown } from '../scanner/report/scoring.ts';
import { nextTurn } from '../scanner/turns.ts';
import { nowOf, type ServiceDeps } from './deps.ts';
import { isFeatureEnabled } from './feature-flags.ts';
import { consumeQuota } from './limits/quotas.ts';
import { scanSlotsFor } from './limits/scan-slots.ts';
import { scansTotal } from './metrics.ts';
import { pageOf } from './pagination.ts';
import { docsUrlOf, SERVICE_NAME, SERVICE_VERSION } from './service-configuration.ts';
import { failedChecksOf, findingEventData, findingView, scanCreatedView } from './views.ts';

/** A scan request as the router's schema parses it. */
export type TriggerInput = z.infer<typeof ScanTriggerInput>;

const TRIGGER_OF_ACTOR: Record<ActorKind, ScanTrigger> = { api_key: 'api', user: 'dashboard', system: 'schedule' };

/**
 * The URL to scan: the site's, or an override on the site's host or one of its subdomains. A site is
 * an origin as far as ports go: the override keeps the site's port or uses its scheme's default, so
 * it cannot reach another service (an admin port) on the customer's server.
 */
export function scanTargetFor(siteUrl: string, override: string | undefined): string {
  if (override === undefined) return siteUrl;
  // The routers' webUrl schema has checked the override's form.
  const url = new URL(override);
  const site = new URL(siteUrl);
  if (url.hostname !== site.hostname && !url.hostname.endsWith(`.${site.hostname}`)) {
    throw new Invalid(`url: de URL moet op ${site.hostname} of een subdomein daarvan liggen.`);
  }
  if (url.port !== '' && url.port !== site.port) {
    throw new Invalid(
      `url: alleen de poort van de site (${site.port || 'standaard'}) of de standaardpoort van http/https is toegestaan.`,
    );
  }
  return url.href;
}

/**
 * A page the caller names, on the site's host (either scheme, the site's port) or the scanned host;
 * anything else is a 400. The crawl moves it to the origin the start page lands on.
 */
function pageOnSite(siteUrl: string, target: string, raw: string): string {
  const page = new URL(raw);
  const hosts = new Set([new URL(siteUrl).host, new URL(target).host]);
  const hostOnly = (url: URL) => (url.port === '' ? url.hostname : url.host);
  if (!hosts.has(page.host) && !hosts.has(hostOnly(page)))
    throw new Invalid(`pages: ${raw.slice(0, 200)} ligt niet op de origin van de site (${new URL(siteUrl).origin}).`);
  page.hash = '';
  return page.href;
}

/**
 * The crawl of one scan: `max_pages` as asked, else the site's setting (raised to hold the named
 * pages), within the plan's cap; one page without proof of control; the pages of the site's open
 * page-level findings, so a fix on them is seen.
 */
async function crawlRequestFor(
  deps: ServiceDeps,
  site: { id: string; tenant_id: string; max_pages: number; include_paths: string; exclude_paths: string },
  target: string,
  input: { max_pages?: number; pages: string[] },
  cap: number,
  control: ProofOfControl,
): Promise<NonNullable<ScanOptions['crawl']>> {
  const given = input.pages;
  const asked = input.max_pages ?? Math.max(site.max_pages, given.length > 0 ? 1 + given.length : 1);
  const verified = intrusiveRefusal(control, new URL(target).hostname) === null;
  const maxPages = verified ? Math.min(asked, cap) : 1;
  const limitedBy = asked > 1 && !verified ? 'unverified' : asked > cap ? 'plan' : null;
  return {
    maxPages,
    limitedBy,
    given,
    previous: maxPages > 1 ? await pagesOfOpenFindings(deps.db, site.tenant_id, site.id) : [],
    includePaths: JSON.parse(site.include_paths) as string[],
    excludePaths: JSON.parse(site.exclude_paths) as string[],
    now: () => nowOf(deps),
  };
}

/**
 * Runs a scan of one of the tenant's sites and stores it with its findings and events. The same
 * function serves agents, the dashboard and scheduled scans: only the actor differs.
 */
export async function triggerScan(deps: ServiceDeps, actor: Actor, input: TriggerInput): Promise<RecordedScan> {
  const options = deps.scanControl ?? {};
  assertPermission(actor, 'write_scans');
  const { db, config } = deps;
  const tenantId = actor.tenantId;
  const site = await findSite(db, tenantId, input.site_id);
  if (!site) throw new NotFound('Site');
  const target = scanTargetFor(site.url, input.url);
  // A slot first: a scan refused for capacity does not use up the monthly quota.
  const release = scanSlotsFor(config).acquire(tenantId);
  let result: Awaited<ReturnType<typeof scanSite>>;
  try {
    // Independent look-ups in parallel: on PostgreSQL each is a round trip.
    // Named pages are judged before anything is spent: another origin is a 400.
    const pages = (input.pages ?? []).map((page) => pageOnSite(site.url, target, page));
    const [plan, probeExposures, vulnerabilityData, control] = await Promise.all([
      planOfTenant(db, tenantId),
      isFeatureEnabled(db, 'exposure_probes', tenantId),
      vulnerabilityDataInUse(deps),
      // Intrusive tests only on hosts the tenant has shown control of (docs/security.md).
      proofForScan(deps, tenantId, target),
    ]);
    if (pages.length > 0 && intrusiveRefusal(control, new URL(target).hostname) !== null)
      throw new Invalid(
        "pages: het eigendom van deze site is niet aangetoond, dus de scan onderzoekt alleen de startpagina. Toon het eigendom aan (GET /api/agent/sites/{site_id}/verification) om pagina's te noemen.",
      );
    await consumeQuota(
      db,
      tenantId,
      {
        tier: plan.tier,
        maxApiCallsPerMonth: plan.max_api_calls_per_month,
        maxScansPerMonth: plan.max_scans_per_month,
      },
      'scans',
      new Date(nowOf(deps)),
    );
    const crawl = await crawlRequestFor(deps, site, target, { ...input, pages }, plan.max_pages_per_scan, control);
    const settings = scanSettingsOf(config);
    result = await scanSite(target, {
      crawl,
      ...settings,
      mail: { ...settings.mail, domain: mailDomainSetting(site.mail_domain) },
      probeExposures,
      vulnerabilityData,
      control,
      onCheckFailure: (check, error) => deps.log?.warn({ err: error, check, site_id: site.id }, 'scanner check failed'),
      signal: options.signal,
      onProgress: options.onProgress,
    });
  } catch (error) {
    if (error instanceof ScanError) {
      scansTotal.inc({ grade: error instanceof ScanCancelledError ? 'cancelled' : 'error' });
      throw new TargetRefused(error.message);
    }
    throw error;
  } finally {
    release();
  }
  // A site that never answered has nothing to keep and nothing to score: refused as before. Once a
  // site has been scanned, a scan that finds it down is stored: its coverage says nothing ran.
  if (result.unreachable && !(await siteHasScans(db, tenantId, site.id))) {
    scansTotal.inc({ grade: 'error' });
    throw new TargetRefused(result.unreachable);
  }
  scansTotal.inc({ grade: result.unreachable ? 'error' : result.grade });
  // Each write transaction starts on its own turn of the event loop, so scans finishing together
  // do not run their transactions back to back in one blocking stretch.
  await nextTurn();
  const eventData = ({ change, ...finding }: RecordedScan['opened'][number], scan: RecordedScan['scan']) =>
    findingEventData(findingView({ ...finding, site_name: site.name, site_url: site.url }), {
      ...change,
      scan_id: scan.id,
      previous_scan_id: scan.previous_scan_id,
    });
  const mail = mailReport(result.mail);
  const recordedScan = await db.transaction().execute(async (trx) => {
    const recorded = await recordScan(
      trx,
      tenantId,
      site.id,
      result,
      options.trigger ?? TRIGGER_OF_ACTOR[actor.actor.kind],
    );
    const { scan } = recorded;
    await enqueueEvents(
      trx,
      tenantId,
      [
        {
          type: 'scan_completed',
          data: {
            ...scanCreatedView(scan),
            changes: recorded.changeCounts,
            ...(mail ? { mail: { score: mail.internetnl?.score ?? null, status: mail.status } } : {}),
          },
        },
        ...recorded.opened.map((f) => ({ type: 'finding_new' as const, data: eventData(f, scan) })),
        ...recorded.resolved.map((f) => ({ type: 'finding_resolved' as const, data: eventData(f, scan) })),
        ...recorded.severityChanged.map((f) => ({
          type: 'finding_severity_changed' as const,
          data: eventData(f, scan),
        })),
      ],
      scan.scanned_at,
    );
    await planScanNotifications(trx, deps, tenantId, scanNotice(site, recorded), scan.scanned_at);
    await options.withinTransaction?.(trx, recorded);
    return recorded;
  });
  // The SMTP part connects to other people's mail servers: after the scan's answer, as a job.
  if (result.mail) startSmtpPart(deps, tenantId, recordedScan.scan.id, result.mail);
  return recordedScan;
}

/** What a recorded scan changed, as notification rules judge it. */
function scanNotice(site: { id: string; name: string; url: string }, recorded: RecordedScan): ScanNotice {
  const { scan } = recorded;
  const rank = (severity: Severity) => SEVERITIES.indexOf(severity);
  const notify = (event: string): event is NotifyEvent => (NOTIFY_EVENTS as readonly string[]).includes(event);
  const changes: ScanNotice['changes'] = [];
  for (const f of [...recorded.opened, ...recorded.resolved])
    if (notify(f.change.kind))
      changes.push({ findingId: f.id, title: f.title, severity: f.severity, event: f.change.kind });
  for (const f of recorded.severityChanged)
    if (f.change.previous_severity !== null && rank(f.severity) < rank(f.change.previous_severity))
      changes.push({ findingId: f.id, title: f.title, severity: f.severity, event: 'severity_up' });
  return {
    scanId: scan.id,
    scannedAt: scan.scanned_at,
    first: scan.previous_scan_id === null,
    site,
    changes,
  };
}

/** A page of the tenant's scans, newest first. */
export async function listScans(deps: ServiceDeps, actor: Actor, input: z.infer<typeof ScanListInput>) {
  assertPermission(actor, 'read_scans');
  const filters: ScanFilters = { siteId: input.site_id, grade: input.grade, since: input.since, until: input.until };
  const { rows, total } = await listScanRows(deps.db, actor.tenantId, filters, input);
  return { scans: rows, pagination: pageOf(total, input) };
}

/**
 * One scan as a SARIF 2.1.0 log for code-scanning tools; `informationUri` is where the tool's
 * documentation is (the service's API docs).
 */
export async function getScanSarif(deps: ServiceDeps, actor: Actor, input: z.infer<typeof ScanGetInput>) {
  const scan = await getScan(deps, actor, input);
  const states = baselineStates(scan.changes);
  const findings = scan.findings.map((f) => ({ ...f, baselineState: states.get(f.id) ?? ('unchanged' as const) }));
  return toSarif(
    { ...scan, findings },
    { name: SERVICE_NAME, version: SERVICE_VERSION, informationUri: docsUrlOf(deps.config, deps.publicOrigin?.()) },
  );
}

/**
 * SARIF's baselineState of each finding a scan saw, against the previous scan: new (first seen,
 * back again, or a further stage), updated (another severity), else unchanged. Resolved findings
 * are left out rather than listed as absent: code scanning would reopen their alerts.
 */
function baselineStates(changes: ScanChanges): Map<string, 'new' | 'updated'> {
  return new Map<string, 'new' | 'updated'>([
    ...[...changes.new, ...changes.regressed, ...changes.escalated.map((e) => e.finding_id)].map(
      (id) => [id, 'new'] as const,
    ),
    ...changes.severity_changed.map((c) => [c.finding_id, 'updated'] as const),
  ]);
}

/** One scan of the tenant with the findings it observed; another tenant's scan is not found. */
export async function getScan(deps: ServiceDeps, actor: Actor, input: z.infer<typeof ScanGetInput>) {
  assertPermission(actor, 'read_scans');
  const scan = await findScan(deps.db, actor.tenantId, input.scan_id);
  if (!scan) throw new NotFound('Scan');
  const { previous_scan_id: _previous, internetnl, coverage, mail, passive, crawl, pages, ...shown } = scan;
  const [rows, changes, unverified] = await Promise.all([
    findingsOfScan(deps.db, actor.tenantId, scan.id),
    changesOf(deps.db, { ...scan, tenant_id: actor.tenantId }),
    recordedChanges(deps.db, scan.id, 'unverified'),
  ]);
  const findings = rows.map(findingView);
  return {
    ...shown,
    passive: passive === 1,
    internetnl: internetnl === null ? null : (JSON.parse(internetnl) as InternetNlReport),
    mail: mailReportOf(mail),
    // Scans stored before coverage was recorded have none to show.
    coverage: coverage === null ? [] : (JSON.parse(coverage) as Coverage[]),
    changes,
    // The open findings the scan could not re-check count in its score, so they are in its breakdown.
    score_breakdown: scoreBreakdown([
      ...findings,
      // At the severity the scan counted them with (recorded as both ends of the change).
      ...unverified.map((u) => ({
        id: u.finding_id,
        finding_type: u.finding_type,
        category: u.category,
        severity: u.from_severity!,
      })),
    ]),
    failed_checks: failedChecksOf(scan),
    findings: findings.map((finding, i) => ({
      ...finding,
      fixes: fixesFor(finding.finding_type, scan.detected_server, scan.detected_platform, finding.actual_value),
      ...affectedView(rows[i]!),
    })),
    ...crawlView(scan.url, crawl, pages),
  };
}

/** Where a scan saw a finding: its pages (the first MAX_AFFECTED_URLS) and their count; null for what is judged once. */
function affectedView(row: { affected_urls: string | null; affected_count: number | null }) {
  const urls = row.affected_urls === null ? null : (JSON.parse(row.affected_urls) as string[]);
  return { affected_urls: urls?.slice(0, MAX_AFFECTED_URLS) ?? null, affected_count: row.affected_count };
}

/** A scan's crawl and pages; a scan stored before crawling examined its start page alone. */
function crawlView(url: string, crawl: string | null, pages: string | null): Pick<ScanResult, 'crawl' | 'pages'> {
  if (crawl !== null && pages !== null) return { crawl: JSON.parse(crawl), pages: JSON.parse(pages) };
  return onePage(url, null, null);
}
