import type { Severity } from '../vocabulary.ts';
import {
  absentConditions,
  NEXTJS_APPLICABILITY,
  NEXTJS_CONDITIONS,
  UNLISTED_NEXTJS_ADVISORY,
  type NextjsContext,
} from './nextjs-applicability.ts';
import type { CompactRetire } from './retire-repository.ts';
import { compareVersions, releaseBranch, releaseLine } from './versions.ts';
import type { CompactWordfence, WordPressPart } from './wordfence-feed.ts';

/** One published advisory that applies to a component at its version. */
export interface MatchedAdvisory {
  /** The advisory's ids, GHSA or Wordfence id first when there is one, then CVEs. */
  ids: string[];
  name?: string;
  severity: Severity;
  summary: string;
  /** The lowest version on the component's release line that no longer has it; null when none is known. */
  fixedIn: string | null;
  /** Conditions the scanner cannot see from outside (Dutch labels): the advisory applies only with them. */
  conditions: string[];
  /** Applies only where the library runs in Node.js on a server, not in the browser. */
  serverSide: boolean;
}

const RETIRE_SEVERITY: Record<string, Severity> = { critical: 'CRITICAL', high: 'HIGH', medium: 'MEDIUM', low: 'LOW' };

/** CVSS v3 qualitative bands (FIRST's specification); a record without a score counts as MEDIUM. */
export function severityOfCvss(score: number | null): Severity {
  if (score === null) return 'MEDIUM';
  if (score >= 9) return 'CRITICAL';
  if (score >= 7) return 'HIGH';
  if (score >= 4) return 'MEDIUM';
  return 'LOW';
}

/** Library advisories about Node.js use only (SSRF through its HTTP adapter, server-side templates), by id or wording. */
const SERVER_SIDE_IDS = new Set(['GHSA-4w2v-q235-vp99', 'GHSA-jr5f-v2jv-69x6', 'GHSA-4hjh-wcwx-xvwj']);
const SERVER_SIDE_WORDING = /\bnode\.?js\b|server-side request forgery|\bssrf\b/i;

/** A boundary that stands for "no fixed version" (retire writes 2.999.999 for end of life). */
const isPlaceholder = (version: string) => /(^|\.)9{3,}(\.|$)/.test(version);
const isPrerelease = (version: string) => /[a-z]/i.test(version);

/**
 * The smallest version at or above `version` that none of the advisories affects: on the same
 * release line when there is one (`onLine`), else the smallest on a later line.
 */
export function smallestSafe(
  version: string,
  candidates: string[],
  affects: (version: string) => boolean,
): { version: string; onLine: boolean } | null {
  const usable = [...new Set(candidates)]
    .filter((c) => !isPlaceholder(c) && (isPrerelease(version) || !isPrerelease(c)))
    .filter((c) => compareVersions(c, version) > 0)
    .sort(compareVersions);
  const safe = usable.filter((c) => !affects(c));
  const onLine = safe.find((c) => releaseLine(c) === releaseLine(version));
  if (onLine) return { version: onLine, onLine: true };
  return safe[0] ? { version: safe[0], onLine: false } : null;
}

type RetireVulnerability = CompactRetire[string]['vulnerabilities'][number];

const retireAffects = (v: RetireVulnerability, version: string) =>
  (!v.atOrAbove || compareVersions(version, v.atOrAbove) >= 0) &&
  compareVersions(version, v.below) < 0 &&
  !v.excludes?.includes(version);

function orderedIds(ids: string[]): string[] {
  return [...ids].sort((a, b) => Number(b.startsWith('GHSA')) - Number(a.startsWith('GHSA')));
}

/**
 * retire.js's advisories for a library at a version, each with its fix; Next.js's are filtered by
 * what the site shows of its context (nextjs-applicability.ts) when `nextjs` is given.
 */
export function retireAdvisories(
  data: CompactRetire,
  component: string,
  version: string,
  nextjs?: NextjsContext,
): { advisories: MatchedAdvisory[]; fix: { version: string; onLine: boolean } | null } {
  const inContext = (v: RetireVulnerability) => {
    if (v.severity === 'none') return false;
    if (!nextjs) return true;
    const entry = NEXTJS_APPLICABILITY[v.ids.find((id) => id.startsWith('GHSA')) ?? ''] ?? UNLISTED_NEXTJS_ADVISORY;
    return absentConditions(entry.needs, nextjs).length === 0;
  };
  // What can apply to this site at all: a safe version is one none of these affects.
  const relevant = (data[component]?.vulnerabilities ?? []).filter(inContext);
  const applicable = relevant.filter((v) => retireAffects(v, version));
  // One advisory can be listed once per release line it touches: one entry each.
  const byId = new Map<string, RetireVulnerability>();
  for (const v of applicable) byId.set(v.ids[0] ?? v.summary ?? v.below, v);
  const boundaries = relevant.map((v) => v.below);
  const fixedIn = (id: string) =>
    smallestSafe(version, boundaries, (candidate) =>
      relevant.some((v) => (v.ids[0] ?? v.summary ?? v.below) === id && retireAffects(v, candidate)),
    )?.version ?? null;
  const advisories = [...byId.entries()].map(([key, v]): MatchedAdvisory => {
    const ghsa = v.ids.find((id) => id.startsWith('GHSA'));
    const entry = nextjs ? (NEXTJS_APPLICABILITY[ghsa ?? ''] ?? UNLISTED_NEXTJS_ADVISORY) : null;
    const ids = orderedIds(entry?.cve && !v.ids.includes(entry.cve) ? [...v.ids, entry.cve] : v.ids);
    return {
      ids: ids.length > 0 ? ids : [`retire.js: ${v.summary ?? key}`.slice(0, 80)],
      ...(entry?.name ? { name: entry.name } : {}),
      severity: RETIRE_SEVERITY[v.severity]!,
      summary: v.summary ?? '',
      fixedIn: fixedIn(key),
      conditions: (entry?.needs ?? [])
        .filter((need) => !NEXTJS_CONDITIONS[need].observable)
        .map((need) => NEXTJS_CONDITIONS[need].label),
      serverSide:
        !nextjs && ((ghsa !== undefined && SERVER_SIDE_IDS.has(ghsa)) || SERVER_SIDE_WORDING.test(v.summary ?? '')),
    };
  });
  return {
    advisories,
    fix: smallestSafe(version, boundaries, (candidate) => relevant.some((v) => retireAffects(v, candidate))),
  };
}

type WordfenceRecord = CompactWordfence[string][number];

/**
 * Whether a record affects a version: inside one of its ranges, and not at or past a patched
 * version of the same release branch (WordPress backports fixes: 6.1.9 has what 6.8.1 fixed).
 */
function wordfenceAffects(record: WordfenceRecord, version: string): boolean {
  const inRange = record.ranges.some(([from, fromInclusive, to, toInclusive]) => {
    const low = from === '*' ? 1 : compareVersions(version, from);
    const high = to === '*' ? -1 : compareVersions(version, to);
    return (low > 0 || (low === 0 && fromInclusive)) && (high < 0 || (high === 0 && toInclusive));
  });
  if (!inRange) return false;
  const branch = releaseBranch(version);
  return !record.patched.some((p) => releaseBranch(p) === branch && compareVersions(version, p) >= 0);
}

/** Wordfence's advisories for a WordPress part at a version, each with its fix. */
export function wordfenceAdvisories(
  data: CompactWordfence,
  part: WordPressPart,
  slug: string,
  version: string,
): { advisories: MatchedAdvisory[]; fix: { version: string; onLine: boolean } | null } {
  const records = data[`${part}:${slug.toLowerCase()}`] ?? [];
  const applicable = records.filter((r) => wordfenceAffects(r, version));
  const candidates = records.flatMap((r) => r.patched);
  // A safe version is one no record of this part affects, not only the ones that apply now.
  const advisories = applicable.map(
    (r): MatchedAdvisory => ({
      ids: [`Wordfence ${r.id}`, ...(r.cve ? [r.cve] : [])],
      severity: severityOfCvss(r.score),
      summary: r.title,
      fixedIn: smallestSafe(version, r.patched, (c) => wordfenceAffects(r, c))?.version ?? null,
      conditions: [],
      serverSide: false,
    }),
  );
  return {
    advisories,
    fix: smallestSafe(version, candidates, (c) => records.some((r) => wordfenceAffects(r, c))),
  };
}
