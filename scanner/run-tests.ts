import { analyze, type CheckFailureReport, type CheckName } from './analyze.ts';
import type { AnalysisContext } from './checks/context.ts';
import type { Coverage } from './coverage.ts';
import { intrusiveRefusal } from './checks/proof-of-control.ts';
import { refusalIn } from './errors.ts';
import { decodeBody } from './net/charset.ts';
import { firstHeader } from './net/headers.ts';
import { displayText } from './report/display-text.ts';
import type { HttpClient } from './net/http-client.ts';
import { UNAVAILABLE_STATUSES } from './net/http-evidence.ts';
import { readClientCode, type ScriptLedger, type ClientCodeEvidence } from './probes/client-code.ts';
import type { RetrieveOptions, SiteContact } from './probes/retriever.ts';
import { TESTS, type TestName } from './tests/registry.ts';
import { REASONS, type ProbedEvidence, type ProbeTools, type ScanTest, type SubjectCoverage } from './tests/test.ts';
import type { FetchedResponse, ScanEvidence, ScanFinding } from './types.ts';
import type { HtmlFacts } from './probes/html.ts';

/** The evidence of a test that did not gather any. */
export const NOTHING_PROBED: ProbedEvidence = {
  securityTxt: null,
  caa: null,
  notFoundBaselines: [],
  probes: [],
  clientCode: null,
  backends: null,
  middleware: null,
  internetnl: null,
  mail: null,
  libraries: null,
  wordpress: null,
};

export interface TestsRun {
  evidence: ScanEvidence;
  ctx: AnalysisContext;
  findings: ScanFinding[];
  coverage: Coverage[];
  /** The checks whose findings are missing: they threw, or their test failed on a subject. */
  failedChecks: CheckName[];
  /** Intrusive tests were held back for want of proof of control: the scan was passive. */
  passive: boolean;
}

type Outcome = { ran: true; probed: Partial<ProbedEvidence> } | { ran: false; entry: SubjectCoverage; withheld?: true };

/** A test's gate and probe. A refused address ends the scan, as it would anywhere; any other failure costs this test only. */
async function gather(test: ScanTest, tools: ProbeTools, report?: CheckFailureReport): Promise<Outcome> {
  const subject = test.subjectOf(tools.site);
  if (tools.site.unreachable && !test.withoutSite)
    return {
      ran: false,
      entry: { subject, status: 'failed', reason: `site niet bereikbaar: ${tools.site.unreachable}` },
    };
  if (test.reach === 'intrusive') {
    // The one gate: without proof of control of the host it would reach, not one request is sent.
    const refusal = intrusiveRefusal(tools.options.control, new URL(subject).hostname);
    if (refusal) return { ran: false, entry: { subject, status: 'skipped', reason: refusal }, withheld: true };
  }
  const page = tools.site.page;
  if (test.readsPage && page && UNAVAILABLE_STATUSES.has(page.status))
    return { ran: false, entry: { subject, status: 'failed', reason: REASONS.unavailable(page.status) } };
  const gated = test.gate?.(tools);
  if (gated) return { ran: false, entry: { subject, ...gated } };
  try {
    return { ran: true, probed: test.probe ? await test.probe(tools) : {} };
  } catch (error) {
    const refusal = refusalIn(error);
    if (refusal) throw refusal;
    report?.(test.name, error);
    const reason = tools.options.signal.aborted ? REASONS.deadline : REASONS.probeFailed;
    return { ran: false, entry: { subject, status: 'failed', reason } };
  }
}

/**
 * Runs the registry on a site as reached: every test's probe side by side, then its checks over
 * the evidence, and records what each covered. Findings a test may not report fail that test.
 */
export async function runTests(
  site: SiteContact,
  client: HttpClient,
  options: RetrieveOptions,
  report?: CheckFailureReport,
  tests: readonly ScanTest[] = TESTS,
  crawl: { ledger?: ScriptLedger; crawled?: boolean } = {},
): Promise<TestsRun> {
  let reading: Promise<ClientCodeEvidence> | null = null;
  const tools: ProbeTools = {
    client,
    site,
    options,
    crawled: crawl.crawled,
    clientCode: () =>
      (reading ??= readClientCode(client, site.page!.url, site.facts!, {
        ...options,
        componentIndex: options.vulnerabilityData?.data.retire?.index,
        ledger: crawl.ledger,
      })),
  };
  const outcomes = await Promise.all(tests.map((test) => gather(test, tools, report)));
  options.onProgress?.('analysis');
  const evidence: ScanEvidence = {
    target: site.target.href,
    scannedAt: site.scannedAt,
    page: site.page,
    https: site.https,
    httpRedirects: site.httpRedirects,
    tls: site.tls,
    ...NOTHING_PROBED,
    ...Object.assign({}, ...outcomes.map((o) => (o.ran ? o.probed : {}))),
  };
  // The page's HTML was parsed once when the site was reached; the checks read that parse.
  const ctx: AnalysisContext = { evidence, html: site.facts };
  const findings: ScanFinding[] = [];
  const coverage: Coverage[] = [];
  const failedChecks: CheckName[] = [];
  tests.forEach((test, i) => {
    const outcome = outcomes[i]!;
    // The registry's names; another list (a test's own) is checked by the router's enum on the way out.
    const name = test.name as TestName;
    const checkNames = Object.keys(test.checks) as CheckName[];
    if (!outcome.ran) {
      coverage.push({ test: name, ...outcome.entry });
      if (outcome.entry.status === 'failed') failedChecks.push(...checkNames);
      return;
    }
    const result = analyze(ctx, test.checks, report);
    const declared = new Set<string>(test.produces);
    const undeclared = result.findings.filter((f) => !declared.has(f.finding_type));
    if (undeclared.length > 0)
      report?.(test.name, new Error(`undeclared finding types: ${undeclared.map((f) => f.finding_type).join(', ')}`));
    const failure =
      undeclared.length > 0 ? REASONS.undeclared : result.failedChecks.length > 0 ? REASONS.checkFailed : null;
    if (failure) {
      // What a broken test saw is not trusted: nothing it reported, nothing it could resolve.
      coverage.push({ test: name, subject: test.subjectOf(site), status: 'failed', reason: failure });
      failedChecks.push(...(undeclared.length > 0 ? checkNames : (result.failedChecks as CheckName[])));
      if (undeclared.length === 0) findings.push(...result.findings);
      return;
    }
    findings.push(...result.findings);
    const subject = test.subjectOf(site);
    const judged = test.coverage?.(ctx, tools, subject) ?? [{ subject, status: 'completed' as const, reason: null }];
    coverage.push(...judged.map((entry) => ({ test: name, ...entry })));
    if (judged.some((entry) => entry.status === 'failed')) failedChecks.push(...checkNames);
  });
  // Subjects are the site's URLs (a script's src): shown as every text of the site is, and judged so too.
  const shown = coverage.map((entry) => ({ ...entry, subject: displayText(entry.subject) }));
  const passive = outcomes.some((o) => !o.ran && o.withheld === true);
  return { evidence, ctx, findings, coverage: shown, failedChecks: [...new Set(failedChecks)], passive };
}

/** The tests a crawl runs on every page it reads. */
export const PAGE_TESTS = TESTS.filter((test) => test.crawl !== undefined);

/**
 * Runs the per-page tests on one more page of a crawl: the page stands in for the start page, the
 * page's URL is each test's subject, and scripts already read for an earlier page are not read again.
 */
export function runPageTests(
  site: SiteContact,
  page: { url: string; response: FetchedResponse; facts: HtmlFacts },
  client: HttpClient,
  options: RetrieveOptions,
  ledger: ScriptLedger,
  report?: CheckFailureReport,
): Promise<TestsRun> {
  const { response } = page;
  const contact: SiteContact = {
    ...site,
    page: {
      url: page.url,
      status: response.status,
      headers: response.headers,
      html: decodeBody(response.body, firstHeader(response.headers, 'content-type')),
      requestOrigin: '',
    },
    pageResponse: response,
    facts: page.facts,
  };
  const tests = PAGE_TESTS.map((test) => ({ ...test, subjectOf: () => page.url }));
  return runTests(contact, client, options, report, tests, { ledger, crawled: true });
}
