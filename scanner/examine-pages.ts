import type { CheckFailureReport, CheckName } from './analyze.ts';
import { intrusiveRefusal } from './checks/proof-of-control.ts';
import type { Coverage } from './coverage.ts';
import { crawlSite, noSkips, type Crawl, type CrawledPage, type CrawlRequest } from './crawl/crawl.ts';
import { crawlScopeOf, mergePageFindings, problemKey, type PageRun } from './crawl/page-findings.ts';
import type { HttpClient } from './net/http-client.ts';
import { ScriptLedger } from './probes/client-code.ts';
import type { RetrieveOptions, SiteContact } from './probes/retriever.ts';
import { displayText } from './report/display-text.ts';
import { PAGE_TESTS, runPageTests, runTests, type TestsRun } from './run-tests.ts';
import { REASONS } from './tests/test.ts';
import type { TestName } from './tests/registry.ts';
import type { ScanFinding } from './types.ts';
import type { CrawlLimit } from './vocabulary.ts';

/** Pages that are gone: examined, and they show no problem any more. */
const GONE = new Set([404, 410]);

export interface ExaminedSite {
  run: TestsRun & { examined: string[] };
  crawl: Crawl & { limitedBy: CrawlLimit | null };
  pages: CrawledPage[];
}

const perPage = (f: ScanFinding) => crawlScopeOf(f.finding_type) !== undefined;

/**
 * Every test on the start page and, when the crawl reads more pages, the per-page tests on each of
 * them, in crawl order: one ledger of scripts for the whole scan, one finding per problem with the
 * pages where it occurs, and each page a subject of the per-page tests' coverage. A crawl needs
 * proof of control of the site's host (docs/security.md); without it the start page is the scan.
 */
export async function examinePages(
  site: SiteContact,
  client: HttpClient,
  options: RetrieveOptions,
  request: CrawlRequest & { limitedBy?: CrawlLimit | null },
  report?: CheckFailureReport,
): Promise<ExaminedSite> {
  const host = new URL(site.page?.url ?? site.target.href).hostname;
  const refused = request.maxPages > 1 && intrusiveRefusal(options.control, host) !== null;
  const bounded = refused ? { ...request, maxPages: 1, given: [], previous: [] } : request;
  const limitedBy = refused ? 'unverified' : (request.limitedBy ?? null);
  const ledger = new ScriptLedger();
  const [start, crawl] = await Promise.all([
    runTests(site, client, options, report, undefined, { ledger }),
    site.unreachable
      ? Promise.resolve<Crawl>({
          summary: {
            max_pages: bounded.maxPages,
            visited: 0,
            stopped_by: null,
            skipped: noSkips(),
          },
          pages: [],
          aliases: [],
        })
      : crawlSite(site, client, options.signal, bounded),
  ]);
  const startUrl = site.page?.url ?? site.target.href;
  const startRan = start.coverage.some((c) => c.test === 'security_headers' && c.status === 'completed');
  const examined = new Set(startRan ? [startUrl, site.target.href] : []);
  const runs: PageRun[] = [{ page: startUrl, findings: start.findings.filter(perPage) }];
  const coverage: Coverage[] = [...start.coverage];
  const failedChecks = new Set<CheckName>(start.failedChecks);
  const extra: ScanFinding[] = [];
  for (const page of crawl.pages.slice(1)) {
    if (GONE.has(page.status ?? 0)) {
      examined.add(page.url).add(page.requested);
      continue;
    }
    if (!page.response || !page.facts) continue;
    const subject = displayText(page.url);
    if (options.signal.aborted) {
      // Read but not judged before the deadline: its findings stay as they are.
      for (const test of PAGE_TESTS)
        coverage.push({ test: test.name as TestName, subject, status: 'failed', reason: REASONS.deadline });
      continue;
    }
    const run = await runPageTests(
      site,
      { url: page.url, response: page.response, facts: page.facts },
      client,
      options,
      ledger,
      report,
    );
    coverage.push(...run.coverage);
    for (const name of run.failedChecks) failedChecks.add(name);
    runs.push({ page: page.url, findings: run.findings });
    extra.push(...run.findings);
    if (run.coverage.some((c) => c.test === 'security_headers' && c.status === 'completed'))
      examined.add(page.url).add(page.requested);
  }
  for (const { from, to } of crawl.aliases) if (examined.has(to)) examined.add(from);
  const merged = mergePageFindings(runs, runs.length, (endpoint) => ledger.pagesOf.get(endpoint) ?? []);
  const byKey = new Map(merged.map((f) => [problemKey(f), f]));
  // The start page's findings keep their place (a one-page scan is as it always was); the others follow.
  const findings = [
    ...start.findings.map((f) => (perPage(f) ? takeMerged(byKey, f) : f)),
    ...extra.map((f) => takeMerged(byKey, f)),
  ].filter((f): f is ScanFinding => f !== null);
  return {
    run: { ...start, findings, coverage, failedChecks: [...failedChecks], examined: [...examined] },
    crawl: { ...crawl, limitedBy },
    pages: crawl.pages,
  };
}

/** The merged finding for an observation, once: later observations of the same problem give null. */
function takeMerged(byKey: Map<string, ScanFinding>, f: ScanFinding): ScanFinding | null {
  const key = problemKey(f);
  const merged = byKey.get(key) ?? null;
  byKey.delete(key);
  return merged;
}
