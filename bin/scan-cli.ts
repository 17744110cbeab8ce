import { inUseAt, shippedData } from '../scanner/vulndata/dataset.ts';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../infra/config.ts';
import {
  scanSite,
  ScanError,
  SCAN_STAGE_LABELS,
  SEVERITIES,
  TargetRefusedError,
  type ScanResult,
} from '../scanner/index.ts';
import { toSarif } from '../scanner/report/sarif.ts';
import { CRAWL_LIMITS, ONE_PAGE } from '../scanner/crawl/crawl.ts';
import type { CliIo } from './cli-io.ts';
import type { Severity } from '../scanner/vocabulary.ts';
import { scanSettingsOf, smtpSettingsOf } from '../services/scan-settings.ts';
import { completeSmtpPart, type SmtpCache } from '../scanner/mail-servers.ts';
import { mailReport } from '../scanner/report/mail.ts';
import { docsUrlOf, SERVICE_NAME, SERVICE_VERSION } from '../services/service-configuration.ts';

const FORMATS = ['text', 'json', 'sarif'] as const;
const FAIL_ON = SEVERITIES.map((s) => s.toLowerCase());

const USAGE = `Usage: npm run -s scan -- <url> [--json] [--format text|json|sarif] [--fail-on ${FAIL_ON.join('|')}]
       [--max-pages N] [--page URL]...

Scans one website (SSL/TLS, security headers, exposed endpoints) and prints the report: readable
text, the result object as JSON (--json is --format json), or a SARIF 2.1.0 log for code scanning.
--fail-on makes the exit code a CI gate. --max-pages (1-${CRAWL_LIMITS.maxPages}, default 1) examines
that many pages of the site, the start page included, found through robots.txt, sitemaps and links;
--page (up to ${CRAWL_LIMITS.givenPages} times) names a page to examine in any case.

Exit codes: 0 a result (with --fail-on: and no finding at or above that severity); 1 with --fail-on
a finding at or above that severity, without it the scan could not run; 2 wrong usage, or with
--fail-on the scan could not run (bad URL, refused address, unreachable site).

Settings from the environment (or .env): SCANNER_ALLOW_PRIVATE_TARGETS, SCANNER_REQUEST_TIMEOUT,
SCANNER_DEADLINE, SCANNER_DNS_SERVERS; PUBLIC_URL (or else HOST and PORT) names the service whose
API docs the SARIF log links to.`;

/** Exit codes (see USAGE). */
const EXIT = { ok: 0, findingsAtThreshold: 1, scanFailed: 1, usage: 2, scanFailedWithGate: 2 } as const;

class UsageError extends Error {}

function report(result: ScanResult): string {
  const lines = [
    `Scan van ${result.url} (${result.scanned_at})`,
    `Cijfer: ${result.grade}   Score: ${result.score}/100`,
    `  SSL/TLS ${result.ssl_score}   Headers ${result.headers_score}   Endpoints ${result.endpoints_score}`,
    `Platform: ${result.detected_platform ?? 'niet herkend'}   Verzoeken: ${result.requests_made}`,
    ...(result.crawl.visited > 1 ? [`Pagina's: ${result.pages.map((p) => p.url).join(', ')}`] : []),
    '',
  ];
  for (const severity of SEVERITIES) {
    const findings = result.findings.filter((f) => f.severity === severity);
    if (findings.length === 0) continue;
    lines.push(`${severity} (${findings.length})`);
    for (const f of findings)
      lines.push(
        `  - ${f.title} [${f.finding_type}]`,
        `    ${f.endpoint}${f.actual_value ? `  (${f.actual_value})` : ''}`,
      );
    lines.push('');
  }
  if (result.findings.length === 0) lines.push('Geen bevindingen.');
  if (result.failed_checks.length > 0) lines.push(`Niet uitgevoerd: ${result.failed_checks.join(', ')}`);
  return lines.join('\n');
}

function parseCommandLine(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      format: { type: 'string' },
      'fail-on': { type: 'string' },
      help: { type: 'boolean', default: false },
      'max-pages': { type: 'string' },
      page: { type: 'string', multiple: true },
    },
  });
  const format = values.format ?? (values.json ? 'json' : 'text');
  if (!(FORMATS as readonly string[]).includes(format) || (values.json && format !== 'json'))
    throw new UsageError(`--format takes ${FORMATS.join(', ')}`);
  const failOn = values['fail-on'];
  if (failOn !== undefined && !FAIL_ON.includes(failOn)) throw new UsageError(`--fail-on takes ${FAIL_ON.join(', ')}`);
  if (!values.help && positionals.length !== 1) throw new UsageError('one URL is needed');
  const pages = values.page ?? [];
  if (pages.length > CRAWL_LIMITS.givenPages)
    throw new UsageError(`--page takes at most ${CRAWL_LIMITS.givenPages} pages`);
  const rawMax = values['max-pages'];
  const maxPages = rawMax === undefined ? Math.max(1, pages.length > 0 ? 1 + pages.length : 1) : Number(rawMax);
  if (!Number.isInteger(maxPages) || maxPages < 1 || maxPages > CRAWL_LIMITS.maxPages)
    throw new UsageError(`--max-pages takes a whole number from 1 to ${CRAWL_LIMITS.maxPages}`);
  return {
    maxPages: Math.min(maxPages, CRAWL_LIMITS.maxPages),
    pages,
    help: values.help,
    url: positionals[0]!,
    format: format as (typeof FORMATS)[number],
    failOn: failOn?.toUpperCase() as Severity | undefined,
  };
}

/** Whether a finding at or above `threshold` is present (SEVERITIES runs from CRITICAL down). */
const atOrAbove = (result: ScanResult, threshold: Severity) =>
  result.findings.some((f) => SEVERITIES.indexOf(f.severity) <= SEVERITIES.indexOf(threshold));

const NO_CACHE: SmtpCache = { fresh: async () => null, keep: async () => {} };

function render(result: ScanResult, format: (typeof FORMATS)[number], config: ReturnType<typeof loadConfig>): string {
  // The mail test as the API shows it: the report, not the evidence it is computed from.
  if (format === 'json') return JSON.stringify({ ...result, mail: mailReport(result.mail) }, null, 2);
  if (format === 'sarif')
    return JSON.stringify(
      toSarif(result, {
        name: SERVICE_NAME,
        version: SERVICE_VERSION,
        informationUri: docsUrlOf(config),
      }),
      null,
      2,
    );
  return report(result);
}

/**
 * Runs the scan command and returns its exit code (see USAGE). In-process, so tests call it
 * directly; `bin/scan.ts` is the command-line wrapper.
 */
export async function runScan(args: string[], io: CliIo): Promise<number> {
  let options: ReturnType<typeof parseCommandLine>;
  try {
    options = parseCommandLine(args);
  } catch (error) {
    const message =
      error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
        ? (error as Error).message
        : String(error);
    io.stderr.write(`${message}\n${USAGE}\n`);
    return EXIT.usage;
  }
  if (options.help) {
    io.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  try {
    const config = loadConfig(io.env);
    const result = await scanSite(options.url, {
      // The service's settings, internet.nl's included: the command line reports the same sections.
      ...scanSettingsOf(config),
      // The command line has no database: it judges versions by the snapshot shipped with the code.
      vulnerabilityData: inUseAt(shippedData(), Date.now()),
      onProgress: (stage) => io.stderr.write(`… ${SCAN_STAGE_LABELS[stage]}\n`),
      crawl: { ...ONE_PAGE, maxPages: options.maxPages, given: options.pages },
    });
    // The command line waits for the SMTP part (SCANNER_SMTP) instead of leaving it pending; it has no cache.
    if (result.mail?.smtp.state === 'pending')
      result.mail = await completeSmtpPart(
        result.mail,
        smtpSettingsOf(config, () => new Date()),
        NO_CACHE,
      );
    // A site that gave no page has no report: the scan could not run, as the exit codes say.
    if (result.unreachable) {
      io.stderr.write(`${result.unreachable}\n`);
      return options.failOn ? EXIT.scanFailedWithGate : EXIT.scanFailed;
    }
    io.stdout.write(`${render(result, options.format, config)}\n`);
    return options.failOn && atOrAbove(result, options.failOn) ? EXIT.findingsAtThreshold : EXIT.ok;
  } catch (error) {
    const known = error instanceof ScanError || error instanceof ConfigError;
    // On the command line the operator can change the guard; say how.
    const hint =
      error instanceof TargetRefusedError
        ? '\nLoopback and private addresses are refused unless SCANNER_ALLOW_PRIVATE_TARGETS=true is set.'
        : '';
    io.stderr.write(`${known ? (error as Error).message : `Unexpected error: ${String(error)}`}${hint}\n`);
    return options.failOn ? EXIT.scanFailedWithGate : EXIT.scanFailed;
  }
}
