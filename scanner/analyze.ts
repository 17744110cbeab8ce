import { toFinding } from './report/findings.ts';
import type { AnalysisContext, Check } from './checks/context.ts';
import type { UnionToIntersection } from './tests/test.ts';
import { TESTS } from './tests/registry.ts';
import { parseHtml } from './probes/html.ts';
import type { Observation, ScanEvidence, ScanFinding } from './types.ts';
import { SEVERITIES } from './vocabulary.ts';

type RegistryChecks = UnionToIntersection<(typeof TESTS)[number]['checks']>;

/** Every check of every test, by name: pure functions of the evidence, named so a result can say which one failed. */
export const CHECKS = Object.assign({}, ...TESTS.map((test) => test.checks)) as RegistryChecks;

export type CheckName = keyof typeof CHECKS;

/** Names of the checks, as `failed_checks` lists them. */
export const CHECK_NAMES = Object.keys(CHECKS) as [CheckName, ...CheckName[]];

export function contextFor(evidence: ScanEvidence): AnalysisContext {
  return { evidence, html: evidence.page?.html != null ? parseHtml(evidence.page.html) : null };
}

export interface Observed {
  observations: Observation[];
  /** Checks that threw: their findings are missing, the rest of the scan stands. */
  failedChecks: CheckName[];
}

/** Told of a check or retrieval phase that failed, with its error (the caller logs it). */
export type CheckFailureReport = (check: string, error: unknown) => void;

/** Runs every check over the evidence; a check that throws is listed and reported, the others stand. */
export function runChecks(
  ctx: AnalysisContext,
  checks: Partial<Record<CheckName, Check>> = CHECKS,
  report?: CheckFailureReport,
): Observed {
  const observations: Observation[] = [];
  const failedChecks: CheckName[] = [];
  for (const [name, check] of Object.entries(checks) as Array<[CheckName, Check]>) {
    try {
      observations.push(...check(ctx));
    } catch (error) {
      failedChecks.push(name);
      report?.(name, error);
    }
  }
  return { observations, failedChecks };
}

/** Findings sorted by severity, one per (type, endpoint), and the checks that could not run. */
export function analyze(
  ctx: AnalysisContext,
  checks?: Partial<Record<CheckName, Check>>,
  report?: CheckFailureReport,
): { findings: ScanFinding[]; failedChecks: CheckName[] } {
  const { observations, failedChecks } = runChecks(ctx, checks, report);
  const unique = new Map<string, ScanFinding>();
  for (const observation of observations) {
    const key = `${observation.type} ${observation.endpoint}`;
    if (!unique.has(key)) unique.set(key, toFinding(observation));
  }
  const findings = [...unique.values()].sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity));
  return { findings, failedChecks };
}
