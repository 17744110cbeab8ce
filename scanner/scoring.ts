import { CATALOG } from './catalog/index.ts';
import { worstClass } from './tls-guideline.ts';
import type { ScanFinding } from './types.ts';
import { GRADE_THRESHOLDS, type Category, type Grade, type NcscClass, type Severity } from './vocabulary.ts';

/** Points a category sub-score loses per finding of each severity. */
export const SEVERITY_PENALTY: Record<Severity, number> = { CRITICAL: 40, HIGH: 20, MEDIUM: 8, LOW: 2 };

/** Share of each category in the overall score. */
export const CATEGORY_WEIGHT: Record<Category, number> = { SSL_TLS: 0.4, SECURITY_HEADER: 0.3, EXPOSED_ENDPOINT: 0.3 };

/**
 * Caps on the overall score, lowest first: the score never exceeds the cap of any rule a finding
 * meets, so the grade never exceeds the band the cap lies in.
 */
export const SCORE_CAPS: ReadonlyArray<{ rule: string; cap: number; applies: (finding: ScanFinding) => boolean }> = [
  // The top of the zwak band.
  { rule: 'een CRITICAL-bevinding', cap: 54, applies: (f) => f.severity === 'CRITICAL' },
  // The top of the goed band: internet.nl fails a site with any such element.
  { rule: 'een element dat de NCSC-TLS-richtlijn Onvoldoende noemt', cap: 89, applies: (f) => CATALOG[f.finding_type].ncsc === 'Onvoldoende' },
];

export function gradeFor(score: number): Grade {
  return GRADE_THRESHOLDS.find(([, minimum]) => score >= minimum)![0];
}

export interface Scores {
  score: number;
  grade: Grade;
  ssl_score: number;
  headers_score: number;
  endpoints_score: number;
}

function subScore(findings: ScanFinding[], category: Category): number {
  const lost = findings.filter((f) => f.category === category).reduce((sum, f) => sum + SEVERITY_PENALTY[f.severity], 0);
  return Math.max(0, 100 - lost);
}

export function computeScores(findings: ScanFinding[]): Scores {
  const ssl_score = subScore(findings, 'SSL_TLS');
  const headers_score = subScore(findings, 'SECURITY_HEADER');
  const endpoints_score = subScore(findings, 'EXPOSED_ENDPOINT');
  const weighted = Math.round(
    ssl_score * CATEGORY_WEIGHT.SSL_TLS + headers_score * CATEGORY_WEIGHT.SECURITY_HEADER + endpoints_score * CATEGORY_WEIGHT.EXPOSED_ENDPOINT,
  );
  const score = Math.min(weighted, ...SCORE_CAPS.filter((c) => findings.some(c.applies)).map((c) => c.cap));
  return { score, grade: gradeFor(score), ssl_score, headers_score, endpoints_score };
}

/**
 * The NCSC-NL TLS guideline's verdict on what a scan found: the worst class among the findings that
 * name one. Without any, the server is at least Voldoende (findings only report what falls short).
 */
export function ncscVerdict(findings: ScanFinding[]): NcscClass {
  const classes = findings.map((f) => CATALOG[f.finding_type].ncsc).filter((c): c is NcscClass => c !== undefined);
  return worstClass(['Voldoende', ...classes]);
}
