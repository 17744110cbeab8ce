import { setMaxListeners } from 'node:events';
import { expiriesOf, type Expiry } from './checks/expiries.ts';
import type { CheckFailureReport, CheckName } from './analyze.ts';
import type { Coverage } from './coverage.ts';
import type { ProofOfControl } from './checks/proof-of-control.ts';
import { ScanCancelledError } from './errors.ts';
import { HttpClient } from './net/http-client.ts';
import { hstsMaxAgeOf } from './net/headers.ts';
import { detectSitePlatform } from './probes/site-platform.ts';
import {
  parseTarget,
  reachSite,
  type InternetNlSettings,
  type MailSettings,
  type RetrieveOptions,
} from './probes/retriever.ts';
import { examinePages } from './examine-pages.ts';
import { ONE_PAGE, type CrawledPage, type CrawlRequest, type CrawlSummary } from './crawl/crawl.ts';
import type { CrawlLimit } from './vocabulary.ts';
import { internetNlReport, type InternetNlReport } from './report/internetnl.ts';
import { displayText } from './report/display-text.ts';
import { computeScores } from './report/scoring.ts';
import type { MailRun, ScanEvidence, ScanFinding } from './types.ts';
import type { FindingType } from './catalog/index.ts';
import { tlsFindingTypes } from './tests/tls.ts';
import { detectServer } from './probes/server-detection.ts';
import type { VulnerabilityDataInUse } from './vulndata/dataset.ts';
import { SEVERITIES, type Grade, type ScanStage, type SitePlatform, type WebServer } from './vocabulary.ts';

export interface ScanResult {
  url: string;
  score: number;
  grade: Grade;
  ssl_score: number;
  headers_score: number;
  endpoints_score: number;
  detected_platform: SitePlatform | null;
  /** The web server or edge platform that answered, by its headers or its own not-found page. */
  detected_server: WebServer | null;
  scanned_at: string;
  findings: ScanFinding[];
  /** Checks whose findings are missing from this result because they failed or ran out of time. */
  failed_checks: CheckName[];
  /** What each test covered: one entry per test and subject, with the reason when it did not complete. */
  coverage: Coverage[];
  /** Why the site gave no page at all (every test then failed); null when it was reached. */
  unreachable: string | null;
  /** Intrusive tests were skipped for want of proof of control: the scan did what a visitor's browser does. */
  passive: boolean;
  /** Number of network requests and handshakes the scan made. */
  requests_made: number;
  /** How many pages the scan examined and why it stopped or left pages (docs/scanner.md, "Pages"). */
  crawl: CrawlReport;
  /** The pages visited, the start page first, in crawl order. */
  pages: PageReport[];
  /**
   * The URLs whose page-level findings this scan re-checked: each page the per-page tests completed
   * on (as asked for and as landed on), and pages that are gone (404, 410). Not shown; for the lifecycle.
   */
  examined: string[];
  /** When the site's certificates and security.txt end (monitoring's expiry list and warnings). */
  expiries: Expiry[];
  /** internet.nl's website test (IPv6, DNSSEC, TLS, RPKI); null when not asked for or not gathered. */
  internetnl: InternetNlReport | null;
  /**
   * internet.nl's mail test as stored (DNS evidence and the SMTP state); the report is computed from
   * it (report/mail.ts), also when the SMTP part arrives later. Null when the test is off.
   */
  mail: MailRun | null;
}

export interface ScanOptions {
  /** Allow loopback and private-network targets (tests, intranets). Default false. */
  allowPrivateTargets?: boolean;
  /** Name servers for every look-up of the scan (addresses and CAA); default the system's. */
  dnsServers?: readonly string[];
  /** Bound of each request or handshake. Default 10 s. */
  requestTimeoutMs?: number;
  /** Bound of the whole scan; requests still running then are abandoned. Default 60 s. */
  deadlineMs?: number;
  /** Requests in flight at once. Default 8. */
  concurrency?: number;
  signal?: AbortSignal;
  /** Probe for exposed files and endpoints. Default true. */
  probeExposures?: boolean;
  /** Told when each stage starts (page, tls, probes, analysis), in that order. */
  onProgress?: (stage: ScanStage) => void;
  /** Cloud Storage for Firebase's API origin; tests point it at a loopback stand-in. */
  firebaseStorageApi?: string;
  /** Told of every check or retrieval phase that failed (listed in failed_checks), with its error, for the log. */
  onCheckFailure?: CheckFailureReport;
  /** Run internet.nl's DNSSEC, IPv6, DANE and RPKI tests with these settings. */
  internetnl?: InternetNlSettings;
  /** Run internet.nl's mail test with these settings. */
  mail?: MailSettings;
  /** The vulnerability data versions are judged by; without it the component tests fail. */
  vulnerabilityData?: VulnerabilityDataInUse;
  /**
   * The hosts whose control the tenant has shown: intrusive tests run only there (docs/security.md).
   * Absent for the operator's own scans (the scan command line), which run every test.
   */
  control?: ProofOfControl;
  /** The pages to examine beyond the start page; without it (or with max_pages 1) the start page alone. */
  crawl?: CrawlRequest & { limitedBy?: CrawlLimit | null };
}

/** A scan's `crawl`: its bounds and what became of the URLs it found. */
export interface CrawlReport extends CrawlSummary {
  /** Why max_pages is lower than asked: the site's control is not proven, or the plan's cap; null when it is not. */
  limited_by: CrawlLimit | null;
}

/** A page the scan visited, as its `pages` list shows it (site text shown sanitised). */
export type PageReport = Pick<CrawledPage, 'url' | 'source' | 'status' | 'content_type' | 'robots'>;

/** The longest certificate subject an expiry carries. */
const MAX_SUBJECT = 300;
/** The longest Content-Type a page of the crawl is listed with. */
const MAX_CONTENT_TYPE = 200;

export const SCAN_DEFAULTS = { requestTimeoutMs: 10_000, deadlineMs: 60_000, concurrency: 8 } as const;

/** A label (site platform, web server) is never a reason to lose the scan: a failure is reported and the label is null. */
function label<T>(name: string, detect: () => T | null, report?: CheckFailureReport): T | null {
  try {
    return detect();
  } catch (error) {
    report?.(name, error);
    return null;
  }
}

/**
 * The TLS findings of every address of the entered name, each judged apart by the TLS test's own
 * checks: a subtest of internet.nl's TLS part fails when any address fails it.
 */
function tlsOfEveryAddress(evidence: ScanEvidence): FindingType[] {
  return (evidence.internetnl?.byAddress ?? []).flatMap(({ tls }) => (tls ? tlsFindingTypes(evidence, tls) : []));
}

/** A mail test that was asked for but gathered nothing (the site did not answer, the test failed): an error, never silence. */
function mailNotRun(settings: MailSettings | undefined, coverage: Coverage[]): MailRun | null {
  if (!settings || settings.domain === null) return null;
  const entry = coverage.find((c) => c.test === 'mail');
  const reason = entry?.reason ?? 'de mailtest liep niet';
  return {
    domain: entry?.subject ?? settings.domain ?? '',
    status: 'error',
    reason,
    evidence: null,
    smtp: { state: 'not_tested', reason, hosts: [] },
  };
}

/** Scans one website over the network and scores what it finds; a site that does not answer is a result too. */
export async function scanSite(url: string, options: ScanOptions = {}): Promise<ScanResult> {
  const target = parseTarget(url);
  const deadline = AbortSignal.timeout(options.deadlineMs ?? SCAN_DEFAULTS.deadlineMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  // Every in-flight request listens for the abort.
  setMaxListeners(0, signal);
  const settings: RetrieveOptions = {
    allowPrivateTargets: options.allowPrivateTargets ?? false,
    dnsServers: options.dnsServers,
    requestTimeoutMs: options.requestTimeoutMs ?? SCAN_DEFAULTS.requestTimeoutMs,
    concurrency: options.concurrency ?? SCAN_DEFAULTS.concurrency,
    signal,
    probeExposures: options.probeExposures ?? true,
    onProgress: options.onProgress,
    firebaseStorageApi: options.firebaseStorageApi,
    internetnl: options.internetnl,
    mail: options.mail,
    vulnerabilityData: options.vulnerabilityData,
    control: options.control,
  };
  const request = options.crawl ?? ONE_PAGE;
  const client = new HttpClient({ ...settings, maxSocketsPerHost: settings.concurrency });
  const cancelled = () => {
    // Stopped by the caller (a cancelled tool call, a client that went away): no result to score.
    if (options.signal?.aborted) throw new ScanCancelledError('De scan is afgebroken.');
  };
  try {
    const site = await reachSite(target, client, settings);
    cancelled();
    options.onProgress?.('probes');
    const { run, crawl, pages } = await examinePages(site, client, settings, request, options.onCheckFailure);
    cancelled();
    const { evidence, ctx } = run;
    const findings = [...run.findings].sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity));
    return {
      url: target.href,
      ...computeScores(findings),
      detected_platform: label(
        'site_platform',
        () => detectSitePlatform(evidence.page, ctx.html),
        options.onCheckFailure,
      ),
      detected_server: label('detected_server', () => detectServer(evidence), options.onCheckFailure),
      scanned_at: evidence.scannedAt.toISOString(),
      findings,
      failed_checks: run.failedChecks,
      coverage: run.coverage,
      unreachable: site.unreachable,
      passive: run.passive,
      requests_made: client.requestCount + site.handshakes,
      crawl: { ...crawl.summary, limited_by: crawl.limitedBy },
      pages: pages.map(({ url, source, status, content_type, robots }) => ({
        url: displayText(url),
        source,
        status,
        content_type: content_type === null ? null : displayText(content_type, MAX_CONTENT_TYPE),
        robots,
      })),
      examined: run.examined,
      internetnl: label(
        'internetnl',
        () =>
          internetNlReport(
            evidence.internetnl,
            new Set([...findings.map((f) => f.finding_type), ...tlsOfEveryAddress(evidence)]),
            {
              hstsMaxAge: hstsMaxAgeOf(evidence.https?.headers),
              addresses: evidence.internetnl?.byAddress ?? [],
              zeroRtt: evidence.tls?.features?.earlyData ?? null,
            },
          ),
        options.onCheckFailure,
      ),
      mail: evidence.mail ?? mailNotRun(options.mail, run.coverage),
      // Certificate subjects are the site's text: shown sanitised and bounded, like every finding's.
      expiries: (label('expiries', () => expiriesOf(evidence), options.onCheckFailure) ?? []).map((expiry) => ({
        ...expiry,
        subject: displayText(expiry.subject, MAX_SUBJECT),
      })),
    };
  } finally {
    client.close();
  }
}
