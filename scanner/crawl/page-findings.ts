import type { FindingType } from '../catalog/index.ts';
import { displayText } from '../report/display-text.ts';
import { TESTS } from '../tests/registry.ts';
import type { ScanFinding } from '../types.ts';
import type { CrawlScope } from '../vocabulary.ts';

/** Pages the API lists in a finding's `affected_urls`; `affected_count` counts them all. */
export const MAX_AFFECTED_URLS = 20;
/** Paths its actual_value names before "… (en N meer)". */
const PATHS_SHOWN = 5;
/** Distinct values of the pages its actual_value carries (cookie names, policies). */
const VALUES_SHOWN = 3;

const SCOPES = new Map<FindingType, CrawlScope>();
for (const test of TESTS) if (test.crawl) for (const type of test.produces) SCOPES.set(type, test.crawl);

/** How a finding type is judged when a scan reads several pages; undefined: once per scan. */
export const crawlScopeOf = (type: FindingType): CrawlScope | undefined => SCOPES.get(type);

/** Finding types that are one finding per site, whatever page shows them (keyed by type, not endpoint). */
export const isPageLevel = (type: FindingType) => SCOPES.get(type) === 'page';

/** The findings of the per-page tests on one page of the crawl, in crawl order. */
export interface PageRun {
  page: string;
  findings: ScanFinding[];
}

/**
 * One problem, one finding: a page-level type once per origin (the pages of a crawl share one),
 * anything else once per endpoint. The finding lifecycle matches stored findings by it too.
 */
export function problemKey(f: Pick<ScanFinding, 'finding_type' | 'endpoint'>): string {
  if (!isPageLevel(f.finding_type)) return `${f.finding_type}\n${f.endpoint}`;
  try {
    return `${f.finding_type}\n${new URL(f.endpoint).origin}`;
  } catch {
    return `${f.finding_type}\n${f.endpoint}`;
  }
}

function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

/** "op 7 van 25 pagina's: /a, /b, … (en 5 meer)", then what the pages showed. */
function whereValue(pages: readonly string[], examined: number, values: readonly string[]): string {
  const shown = pages.slice(0, PATHS_SHOWN).map(pathOf).join(', ');
  const more = pages.length > PATHS_SHOWN ? `, … (en ${pages.length - PATHS_SHOWN} meer)` : '';
  const seen = values.slice(0, VALUES_SHOWN).join(' | ') + (values.length > VALUES_SHOWN ? ' | …' : '');
  return displayText(`op ${pages.length} van ${examined} pagina's: ${shown}${more}${seen ? `; ${seen}` : ''}`);
}

/**
 * The per-page findings of a crawl, one per problem: a page-level finding once per type, at the first
 * page that shows it; a script's finding once per script. Each lists the pages where it occurs
 * (`affected_urls`, crawl order). With one page examined, every finding is as that page gives it.
 */
export function mergePageFindings(
  runs: readonly PageRun[],
  examined: number,
  pagesOf: (endpoint: string) => readonly string[],
): ScanFinding[] {
  const order = new Map(runs.map((run, i) => [run.page, i]));
  const groups = new Map<string, { first: ScanFinding; pages: string[]; values: string[] }>();
  for (const run of runs) {
    for (const finding of run.findings) {
      const key = problemKey(finding);
      const group = groups.get(key) ?? { first: finding, pages: [], values: [] };
      if (!group.pages.includes(run.page)) group.pages.push(run.page);
      if (finding.actual_value !== null && !group.values.includes(finding.actual_value))
        group.values.push(finding.actual_value);
      groups.set(key, group);
    }
  }
  return [...groups.values()].map(({ first, pages, values }) => {
    const loading = isPageLevel(first.finding_type) ? [] : pagesOf(first.endpoint).filter((p) => order.has(p));
    const affected = [...new Set([...pages, ...loading])].sort((a, b) => order.get(a)! - order.get(b)!);
    const urls = affected.map((url) => displayText(url));
    return {
      ...first,
      actual_value:
        examined > 1 && isPageLevel(first.finding_type) ? whereValue(urls, examined, values) : first.actual_value,
      // All of them (a crawl reads at most CRAWL_LIMITS.maxPages): the lifecycle needs each; the API shows 20.
      affected_urls: urls,
      affected_count: urls.length,
    };
  });
}
