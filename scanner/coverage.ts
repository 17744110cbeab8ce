import type { FindingType } from './catalog/index.ts';
import { siteOf } from './net/registrable-domain.ts';
import { TESTS, type TestName } from './tests/registry.ts';
import { isPageLevel } from './crawl/page-findings.ts';
import type { CoverageStatus, SubjectKind } from './vocabulary.ts';

/** One test on one subject in one scan (the scan's `coverage`). */
export interface Coverage {
  test: TestName;
  subject: string;
  status: CoverageStatus;
  reason: string | null;
}

const PRODUCERS = new Map<FindingType, Array<{ name: TestName; subject: SubjectKind }>>();
for (const test of TESTS) for (const type of test.produces) PRODUCERS.set(type, [...(PRODUCERS.get(type) ?? []), test]);

/** Where a stored finding was last seen: its pages, or its endpoint when it has none (stored before crawling). */
function pagesOf(finding: { endpoint: string; affected_urls?: string | null }): string[] {
  const stored: unknown = finding.affected_urls ? JSON.parse(finding.affected_urls) : null;
  return Array.isArray(stored) && stored.length > 0 ? (stored as string[]) : [finding.endpoint];
}

/** The tests that can report a finding type. */
const producersOf = (type: FindingType) => PRODUCERS.get(type) ?? [];

const parsed = (url: string): URL | null => {
  try {
    return new URL(url);
  } catch {
    return null;
  }
};
const unbracketed = (host: string) => host.replace(/^\[|\]$/g, '');

/**
 * Whether a subject holds a finding's place. A subject with a path (one script) holds that URL
 * only. Otherwise by the test's kind: a host name holds every URL on it, an origin its URLs, and
 * the scripts of a page hold what they lead to on the page's host and on other parties' sites
 * (their backends), but not another host of the same site.
 */
export function subjectHolds(kind: SubjectKind, subject: string, endpoint: string): boolean {
  const place = parsed(endpoint);
  if (!place) return false;
  if (kind === 'host') return unbracketed(place.hostname) === unbracketed(subject);
  const at = parsed(subject);
  if (!at) return false;
  if (at.pathname !== '/' || at.search !== '') return `${place.origin}${place.pathname}${place.search}` === at.href;
  if (kind !== 'script') return place.origin === at.origin;
  return place.hostname === at.hostname || siteOf(place.hostname) !== siteOf(at.hostname);
}

/**
 * Whether this scan re-checked a finding: a test that can report its type completed on a subject
 * that holds its place, and no entry of that test that holds it failed or was left out. Only such
 * a finding may be resolved by not being seen.
 */
export function recheckedBy(coverage: readonly Coverage[], examined: readonly string[]) {
  const byTest = new Map<string, Coverage[]>();
  for (const entry of coverage) byTest.set(entry.test, [...(byTest.get(entry.test) ?? []), entry]);
  const pages = new Set(examined);
  return (finding: { finding_type: FindingType; endpoint: string; affected_urls?: string | null }): boolean =>
    // A page-level finding is re-checked only when every page where it was seen was examined again.
    (!isPageLevel(finding.finding_type) || pagesOf(finding).every((page) => pages.has(page))) &&
    producersOf(finding.finding_type).some((test) => {
      const entries = (byTest.get(test.name) ?? []).filter((e) =>
        subjectHolds(test.subject, e.subject, finding.endpoint),
      );
      return entries.length > 0 && entries.every((e) => e.status === 'completed');
    });
}
