import type { ScanFinding } from './types.ts';
import { GRADE_THRESHOLDS, type Category, type Grade, type Severity } from './vocabulary.ts';

/** Points a category sub-score loses per finding of each severity. */
export const SEVERITY_PENALTY: Record<Severity, number> = { CRITICAL: 40, HIGH: 20, MEDIUM: 8, LOW: 2 };

/** Share of each category in the overall score. */
export const CATEGORY_WEIGHT: Record<Category, number> = { SSL_TLS: 0.4, SECURITY_HEADER: 0.3, EXPOSED_ENDPOINT: 0.3 };

/** A CRITICAL finding caps the score at the top of the zwak band, so the grade never exceeds zwak. */
export const CRITICAL_SCORE_CAP = 54;

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
  const score = findings.some((f) => f.severity === 'CRITICAL') ? Math.min(weighted, CRITICAL_SCORE_CAP) : weighted;
  return { score, grade: gradeFor(score), ssl_score, headers_score, endpoints_score };
}
