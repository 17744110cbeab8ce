import { CATALOG, type FindingType } from '../catalog/index.ts';
import { worstClass } from '../rules/tls-guideline.ts';
import type { ScanFinding } from '../types.ts';
import {
  CATEGORY_SCORES,
  GRADE_THRESHOLDS,
  type Category,
  type CategoryScoreField,
  type Grade,
  type NcscClass,
  type Severity,
} from '../vocabulary.ts';

/** Points a category sub-score loses per finding of each severity. */
export const SEVERITY_PENALTY: Record<Severity, number> = { CRITICAL: 40, HIGH: 20, MEDIUM: 8, LOW: 2 };

/** Share of each category in the overall score. */
export const CATEGORY_WEIGHT: Record<Category, number> = { SSL_TLS: 0.4, SECURITY_HEADER: 0.3, EXPOSED_ENDPOINT: 0.3 };

/**
 * Caps on the overall score, lowest first: the score never exceeds the cap of any rule a finding
 * meets, so the grade never exceeds the band the cap lies in.
 */
export const SCORE_CAPS: ReadonlyArray<{
  rule: string;
  cap: number;
  applies: (finding: Pick<ScanFinding, 'severity' | 'finding_type'>) => boolean;
}> = [
  // The top of the zwak band.
  { rule: 'een CRITICAL-bevinding', cap: 54, applies: (f) => f.severity === 'CRITICAL' },
  // The top of the goed band: internet.nl fails a site with any such element.
  {
    rule: 'een element dat de NCSC-TLS-richtlijn Onvoldoende noemt',
    cap: 89,
    applies: (f) => CATALOG[f.finding_type].ncsc === 'Onvoldoende',
  },
];

export function gradeFor(score: number): Grade {
  return GRADE_THRESHOLDS.find(([, minimum]) => score >= minimum)![0];
}

export type Scores = { score: number; grade: Grade } & Record<CategoryScoreField, number>;

/** What scoring reads of a finding. */
export type ScoredFinding = Pick<ScanFinding, 'finding_type' | 'severity' | 'category'>;

function subScore(findings: readonly ScoredFinding[], category: Category): number {
  const lost = findings
    .filter((f) => f.category === category)
    .reduce((sum, f) => sum + SEVERITY_PENALTY[f.severity], 0);
  return Math.max(0, 100 - lost);
}

export function computeScores(findings: readonly ScoredFinding[]): Scores {
  const categories = Object.keys(CATEGORY_SCORES) as Category[];
  const sub = Object.fromEntries(categories.map((c) => [c, subScore(findings, c)])) as Record<Category, number>;
  const weighted = Math.round(categories.reduce((sum, c) => sum + sub[c] * CATEGORY_WEIGHT[c], 0));
  const score = Math.min(weighted, ...SCORE_CAPS.filter((c) => findings.some(c.applies)).map((c) => c.cap));
  const fields = Object.fromEntries(categories.map((c) => [CATEGORY_SCORES[c].field, sub[c]])) as Record<
    CategoryScoreField,
    number
  >;
  return { score, grade: gradeFor(score), ...fields };
}

/**
 * The NCSC-NL TLS guideline's verdict on what a scan found: the worst class among the findings that
 * name one. Without any, the server is at least Voldoende (findings only report what falls short).
 */
export function ncscVerdict(findings: ScanFinding[]): NcscClass {
  const classes = findings.map((f) => CATALOG[f.finding_type].ncsc).filter((c): c is NcscClass => c !== undefined);
  return worstClass(['Voldoende', ...classes]);
}

/** How a score came about: what each finding cost and which caps held it down. */
export interface ScoreBreakdown {
  start: number;
  items: Array<{ finding_id: string; finding_type: FindingType; points: number }>;
  caps: Array<{ reason: string; max: number }>;
}

/**
 * The score explained: from 100, each finding's share of what its category lost (its severity's
 * penalty times the category's weight, until the sub-score reaches 0), in whole points that add up
 * exactly (largest remainders take the rounding), then the caps that apply. For every set of
 * findings, min(clamp(start + sum of points, 0, 100), caps) is computeScores(findings).score.
 */
export function scoreBreakdown(
  findings: ReadonlyArray<{ id: string; finding_type: FindingType; severity: Severity; category: Category }>,
): ScoreBreakdown {
  const left: Record<Category, number> = { SSL_TLS: 100, SECURITY_HEADER: 100, EXPOSED_ENDPOINT: 100 };
  const exact = findings.map((f) => {
    const lost = Math.min(SEVERITY_PENALTY[f.severity], left[f.category]);
    left[f.category] -= lost;
    return lost * CATEGORY_WEIGHT[f.category];
  });
  const total = exact.reduce((sum, x) => sum + x, 0);
  const whole = 100 - Math.round(100 - total);
  const points = exact.map(Math.floor);
  const byRemainder = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  const rounding = whole - points.reduce((sum, p) => sum + p, 0);
  for (let k = 0; k < rounding; k++) points[byRemainder[k]![1]]! += 1;
  return {
    start: 100,
    items: findings.map((f, i) => ({
      finding_id: f.id,
      finding_type: f.finding_type,
      points: points[i] === 0 ? 0 : -points[i]!,
    })),
    caps: SCORE_CAPS.filter((c) => findings.some((f) => c.applies(f))).map((c) => ({ reason: c.rule, max: c.cap })),
  };
}
