import type { FindingType } from '../catalog/index.ts';
import type { AnalysisContext, Check } from '../checks/context.ts';
import type { FetchFailure, HttpClient } from '../net/http-client.ts';
import type { ClientCodeEvidence } from '../probes/client-code.ts';
import type { RetrieveOptions, SiteContact } from '../probes/retriever.ts';
import type { ScanEvidence } from '../types.ts';
import type { Category, CoverageStatus, CrawlScope, SubjectKind, TestReach } from '../vocabulary.ts';
import { VULNDATA_UNUSABLE_AFTER_DAYS, type VulndataSource, type VulnerabilityDataInUse } from '../vulndata/dataset.ts';

/** What a test did on one subject; the runner adds the test's name. Reasons are short Dutch text. */
export interface SubjectCoverage {
  subject: string;
  status: CoverageStatus;
  reason: string | null;
}

/** The evidence fields a test's own probe fills; the rest comes from reaching the site. */
export type ProbedEvidence = Pick<
  ScanEvidence,
  | 'securityTxt'
  | 'caa'
  | 'notFoundBaselines'
  | 'probes'
  | 'clientCode'
  | 'backends'
  | 'middleware'
  | 'internetnl'
  | 'mail'
  | 'libraries'
  | 'wordpress'
>;

/** What a probe and a coverage judgement may use: the scan's HTTP client, its settings, the site as reached. */
export interface ProbeTools {
  client: HttpClient;
  options: RetrieveOptions;
  site: SiteContact;
  /**
   * The page's JavaScript, read once per scan for every test that judges it (credentials, library
   * versions): the first call starts the reading, later calls share it. Only for a page with HTML.
   */
  clientCode(): Promise<ClientCodeEvidence>;
  /** A page of a crawl other than the start page: what is judged once per origin is left to the start page. */
  crawled?: boolean;
}

/**
 * One test of the registry (scanner/tests/registry.ts): one file, one row. It owns its network job
 * (`probe`, within the scan's bounds), its pure checks over the evidence, the finding types those
 * may emit, and the judgement of which subjects it covered.
 */
export interface ScanTest<C extends Record<string, Check> = Record<string, Check>, N extends string = string> {
  name: N;
  category: Category;
  subject: SubjectKind;
  /**
   * `passive`: only what a visitor's browser, a resolver or a mail server does for the page.
   * `intrusive`: anything more; the runner skips it, before any probe, on a host without proof of control.
   */
  reach: TestReach;
  /**
   * When a scan reads several pages: `page` runs on each (its findings one per type on the site),
   * `scripts` on each page's scripts not read before; absent runs once, on the start page.
   */
  crawl?: CrawlScope;
  /** Every finding type the checks may emit; emitting another fails the test in that scan. */
  produces: readonly FindingType[];
  checks: C;
  /**
   * Judges the page's own answer (its headers, HTML and scripts): when the page is a 429/502/503/504
   * (a gateway whose site is down), the test does not run, since that answer is not the site's page.
   */
  readsPage?: boolean;
  /** Its subject is not the web server (a domain's DNS and mail servers): it runs when the site does not answer too. */
  withoutSite?: boolean;
  /** The subject the test is about, from the site as reached (also when the site was not reached). */
  subjectOf(site: SiteContact): string;
  /** Skipped or not applicable before any probe runs (a flag, a missing setting, another platform); null runs it. */
  gate?(tools: ProbeTools): { status: 'skipped' | 'not_applicable'; reason: string } | null;
  /** The test's own network job; its evidence is merged into the scan's. */
  probe?(tools: ProbeTools): Promise<Partial<ProbedEvidence>>;
  /**
   * What the evidence let it judge; without this, the test completed on its subject. A subject it
   * could not judge whole (a time-out, the deadline) is `failed`, so its findings stay as they are.
   */
  coverage?(ctx: AnalysisContext, tools: ProbeTools, subject: string): SubjectCoverage[];
}

/** Keeps the literal check names of a test, so the scan's `failed_checks` list is typed from the registry. */
export function defineTest<const C extends Record<string, Check>, const N extends string>(
  test: ScanTest<C, N>,
): ScanTest<C, N> {
  return test;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10}`.replace('.', ',');

/** The Dutch reasons a coverage entry gives, one wording each. */
export const REASONS = {
  disabled: 'uitgeschakeld door de beheerder',
  deadline: 'buiten de tijd van de scan',
  checkFailed: 'fout in de controle',
  probeFailed: 'fout bij het verzamelen van gegevens',
  undeclared: 'de test meldde een soort bevinding die hij niet heeft aangemeld',
  timeout: (ms: number) => `time-out na ${seconds(ms)} s`,
  refused: 'verbinding geweigerd',
  noAnswer: 'geen antwoord',
  unavailable: (status: number) => `de server antwoordde met HTTP ${status}`,
} as const;

/** The reason a request got no answer (or only part of one). */
export function failureReason(failure: FetchFailure, client: HttpClient): string {
  if (failure === 'deadline') return REASONS.deadline;
  if (failure === 'timeout') return REASONS.timeout(client.requestTimeoutMs);
  return failure === 'refused' ? REASONS.refused : REASONS.noAnswer;
}

/** The origin of a URL (scheme, host and port), the subject of tests per origin. */
export const originOfUrl = (url: string | URL): string => new URL(url).origin;

/** The origin of the page the scan read (the target's when there is none): the subject of the page's tests. */
export const pageOriginOf = (site: SiteContact): string => originOfUrl(site.page?.url ?? site.target);
/** A | B as A & B: the checks of all tests as one record. */
export type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void
  ? I
  : never;

/** A scan started without vulnerability data (a program calling scanSite bare): the component tests do not run. */
export const NO_DATA = 'geen kwetsbaarheidsgegevens meegegeven';

const SOURCE_NAMES: Record<VulndataSource, string> = { retire: 'retire.js', wordfence: 'Wordfence' };

/**
 * Why vulnerability data cannot give a test an all-clear: none loaded, older than
 * VULNDATA_UNUSABLE_AFTER_DAYS, or only a subset. Findings from it still count; a clean result does not.
 */
export function vulnerabilityDataGap(inUse: VulnerabilityDataInUse | undefined, source: VulndataSource): string | null {
  const set = inUse?.data[source];
  const age = inUse?.ageDays[source];
  if (!set || age === null || age === undefined)
    return `geen kwetsbaarheidsgegevens van ${SOURCE_NAMES[source]} geladen`;
  if (age > VULNDATA_UNUSABLE_AFTER_DAYS)
    return `de kwetsbaarheidsgegevens van ${SOURCE_NAMES[source]} zijn ${age} dagen oud (meer dan ${VULNDATA_UNUSABLE_AFTER_DAYS})`;
  if (!set.info.complete)
    return `alleen een deel van de gegevens van ${SOURCE_NAMES[source]} is geladen: stel WORDFENCE_API_KEY in of importeer de volledige feed`;
  return null;
}
