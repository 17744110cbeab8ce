// Single source of truth for the scanner's enumerations; schemas, docs, config and CLI import these.

export const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const CATEGORIES = ['SSL_TLS', 'SECURITY_HEADER', 'EXPOSED_ENDPOINT'] as const;
export type Category = (typeof CATEGORIES)[number];

/** Each grade with the minimum score for it, best first: the one table grades come from. */
export const GRADE_THRESHOLDS = [
  ['uitstekend', 90],
  ['goed', 75],
  ['matig', 55],
  ['zwak', 35],
  ['kritiek', 0],
] as const;
export type Grade = (typeof GRADE_THRESHOLDS)[number][0];
export const GRADES: readonly Grade[] = GRADE_THRESHOLDS.map(([grade]) => grade);

/** What a dated item of a site is (a scan's expiries, GET /sites/{site_id}/expiries). */
export const EXPIRY_KINDS = ['certificate', 'intermediate', 'security_txt'] as const;
export type ExpiryKind = (typeof EXPIRY_KINDS)[number];

export const SITE_PLATFORMS = ['wordpress', 'nextjs', 'webflow', 'lovable'] as const;

/** The vulnerability data versions are judged by: retire.js for JavaScript, Wordfence for WordPress. */
export const VULNDATA_SOURCES = ['retire', 'wordfence'] as const;
export type VulndataSource = (typeof VULNDATA_SOURCES)[number];

/** The stages a scan reports while it runs, in order, with Dutch labels that hold no text of the site. */
export const SCAN_STAGES = ['page', 'tls', 'probes', 'analysis'] as const;
export type ScanStage = (typeof SCAN_STAGES)[number];
export const SCAN_STAGE_LABELS: Record<ScanStage, string> = {
  page: 'Pagina ophalen',
  tls: 'TLS-handshakes',
  probes: 'Blootgestelde bestanden, clientcode en backends controleren',
  analysis: 'Bevindingen beoordelen',
};

/** The web servers and edge platforms a scan recognises (detected_server); a fix table exists for each. */
export const WEB_SERVERS = ['nginx', 'apache', 'caddy', 'iis', 'litespeed', 'cloudflare', 'vercel', 'netlify'] as const;
export type WebServer = (typeof WEB_SERVERS)[number];
export type SitePlatform = (typeof SITE_PLATFORMS)[number];

/** The twelve tests of Mozilla's HTTP Observatory; catalog entries name the one they concern. */
export const OBSERVATORY_TESTS = [
  'content-security-policy',
  'cookies',
  'referrer-policy',
  'strict-transport-security',
  'x-frame-options',
  'x-content-type-options',
  'cross-origin-opener-policy',
  'cross-origin-embedder-policy',
  'cross-origin-resource-policy',
  'subresource-integrity',
  'redirection',
  'cross-origin-resource-sharing',
] as const;
export type ObservatoryTest = (typeof OBSERVATORY_TESTS)[number];

/** The classes of the NCSC-NL TLS guideline, best first (scanner/rules/tls-guideline.ts places every element in one). */
export const NCSC_CLASSES = ['Goed', 'Voldoende', 'Uit te faseren', 'Onvoldoende'] as const;
export type NcscClass = (typeof NCSC_CLASSES)[number];

/**
 * What became of one test on one subject in a scan (its `coverage`): it ran to the end, it could
 * not (an error, a time-out, the scan's deadline, the site down), it was switched off, or it does
 * not apply to the subject (no Next.js app, no host name for CAA).
 */
export const COVERAGE_STATUSES = ['completed', 'failed', 'skipped', 'not_applicable'] as const;
export type CoverageStatus = (typeof COVERAGE_STATUSES)[number];

/**
 * How far a test reaches (docs/security.md): `passive` does what a visitor's browser, a resolver or
 * a mail server does for the page; `intrusive` asks for more (guessed paths, backends through their
 * keys, port 25) and runs only on a host whose control the tenant has proven.
 */
export const TEST_REACHES = ['passive', 'intrusive'] as const;
export type TestReach = (typeof TEST_REACHES)[number];

/** How a tenant proves control of a name: a DNS TXT record, a file under /.well-known/, or a meta tag. */
export const CONTROL_METHODS = ['dns', 'file', 'meta'] as const;
export type ControlMethod = (typeof CONTROL_METHODS)[number];

/** What one check of a method found: the token in place, not there (lost at once), or no answer to tell. */
export const PROOF_OUTCOMES = ['present', 'absent', 'unknown'] as const;
export type ProofOutcome = (typeof PROOF_OUTCOMES)[number];

/**
 * What a test judges: a host name (DNS), an origin (TLS on a host and port, files on an origin),
 * the page the scan fetched, or the scripts a page runs and the backends they call.
 */
export type SubjectKind = 'host' | 'origin' | 'page' | 'script' | 'domain';

/**
 * The parts of internet.nl's website test with the names the dashboard shows, in internet.nl's
 * order: the report, the API's schema and the dashboard all take the list from here.
 */
export const INTERNETNL_CATEGORY_LABELS = {
  ipv6: 'Moderne adressen bereikbaar (IPv6)',
  dnssec: 'Domeinnaam ondertekend (DNSSEC)',
  tls: 'Beveiligde verbinding (HTTPS)',
  rpki: 'Route-autorisatie (RPKI)',
} as const;
export type InternetNlCategory = keyof typeof INTERNETNL_CATEGORY_LABELS;
export const INTERNETNL_CATEGORIES = Object.keys(INTERNETNL_CATEGORY_LABELS) as [
  InternetNlCategory,
  ...InternetNlCategory[],
];

/**
 * The parts of internet.nl's mail test with the names the dashboard shows (internet.nl's wording), in
 * its order: the report, the API's schema and the dashboard take the list from here.
 */
export const MAIL_CATEGORY_LABELS = {
  ipv6: 'Moderne adressen bereikbaar (IPv6)',
  dnssec: 'Domeinnamen ondertekend (DNSSEC)',
  auth: 'Echtheidswaarmerken tegen phishing (DMARC, DKIM en SPF)',
  tls: 'Beveiligde verbinding mailserver (STARTTLS en DANE)',
  rpki: 'Route-autorisatie (RPKI)',
} as const;
export type MailCategory = keyof typeof MAIL_CATEGORY_LABELS;
export const MAIL_CATEGORIES = Object.keys(MAIL_CATEGORY_LABELS) as [MailCategory, ...MailCategory[]];
/** Whether the mail test ran on its domain: tested, not applicable (a platform's DNS), or a DNS error. */
export const MAIL_STATUSES = ['tested', 'not_applicable', 'error'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];
/** The domain's MX set: mail servers, a null MX (RFC 7505: no mail), or no MX at all. */
export const MX_STATUSES = ['has_mx', 'null_mx', 'no_mx'] as const;
export type MxStatus = (typeof MX_STATUSES)[number];
/** The SMTP part: tested now, taken from the shared cache, still running after the scan, or not tested. */
export const SMTP_STATES = ['tested', 'cached', 'pending', 'not_tested'] as const;
export type SmtpState = (typeof SMTP_STATES)[number];

/** A scan's sub-score per category: the field it is reported in and the name the dashboard shows. */
export const CATEGORY_SCORES = {
  SSL_TLS: { field: 'ssl_score', label: 'SSL/TLS' },
  SECURITY_HEADER: { field: 'headers_score', label: 'Beveiligingsheaders' },
  EXPOSED_ENDPOINT: { field: 'endpoints_score', label: 'Blootgestelde endpoints' },
} as const satisfies Record<Category, { field: string; label: string }>;
export type CategoryScoreField = (typeof CATEGORY_SCORES)[Category]['field'];

/** Where the crawl found a page it examined (a scan's `pages[].source`), in the order it looks. */
export const PAGE_SOURCES = ['start', 'given', 'previous', 'sitemap', 'link'] as const;
export type PageSource = (typeof PAGE_SOURCES)[number];

/** Why a crawl ended before it ran out of pages (`crawl.stopped_by`; null: it did). */
export const CRAWL_STOPS = ['max_pages', 'bytes', 'time', 'deadline'] as const;
export type CrawlStop = (typeof CRAWL_STOPS)[number];

/** Why the crawl left a URL it found (`crawl.skipped`, a count each). */
export const CRAWL_SKIPS = ['robots', 'off_origin', 'not_html', 'template_duplicate', 'excluded'] as const;
export type CrawlSkip = (typeof CRAWL_SKIPS)[number];

/** What robots.txt says of a visited page; null when it was not consulted (a one-page scan). */
export const ROBOTS_VERDICTS = ['allowed', 'disallowed'] as const;
export type RobotsVerdict = (typeof ROBOTS_VERDICTS)[number];

/**
 * How a test runs when a scan examines several pages: `page` on each page, its findings one per
 * type on the site; `scripts` on each page's scripts, each script read once per scan; absent once.
 */
export const CRAWL_SCOPES = ['page', 'scripts'] as const;
export type CrawlScope = (typeof CRAWL_SCOPES)[number];

/** Why a scan examined fewer pages than asked: no proof of control (one page), or the plan's cap. */
export const CRAWL_LIMITS_BY = ['unverified', 'plan'] as const;
export type CrawlLimit = (typeof CRAWL_LIMITS_BY)[number];
