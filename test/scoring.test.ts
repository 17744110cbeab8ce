import { describe, expect, it } from 'vitest';
import { FINDING_TYPES, type FindingType } from '../scanner/catalog/index.ts';
import { toFinding } from '../scanner/report/findings.ts';
import { computeScores, gradeFor } from '../scanner/report/scoring.ts';
import type { ScanFinding } from '../scanner/types.ts';

const TYPES = FINDING_TYPES;
const finding = (type: FindingType, i = 0): ScanFinding =>
  toFinding({ type, endpoint: `https://example.nl/${i}`, actual_value: null });

/** Deterministic pseudo-random generator so failures reproduce. */
function lcg(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('score and grade', () => {
  it('uses the fixed grade thresholds', () => {
    expect([100, 90, 89, 75, 74, 55, 54, 35, 34, 0].map(gradeFor)).toEqual([
      'uitstekend',
      'uitstekend',
      'goed',
      'goed',
      'matig',
      'matig',
      'zwak',
      'zwak',
      'kritiek',
      'kritiek',
    ]);
  });

  it('scores a scan without findings 100 in every category', () => {
    expect(computeScores([])).toEqual({
      score: 100,
      grade: 'uitstekend',
      ssl_score: 100,
      headers_score: 100,
      endpoints_score: 100,
    });
  });

  it('caps the grade at zwak when any finding is CRITICAL', () => {
    const scores = computeScores([finding('exposed_ds_store'), finding('exposed_git_config')]);
    expect(scores.headers_score).toBe(100);
    expect(scores.grade).toBe('zwak');
    expect(scores.score).toBeLessThanOrEqual(54);
  });

  it('never raises a score when a finding is added (random sequences)', () => {
    const random = lcg(42);
    for (let run = 0; run < 200; run++) {
      const findings: ScanFinding[] = [];
      let previous = computeScores(findings);
      for (let step = 0; step < 12; step++) {
        findings.push(finding(TYPES[Math.floor(random() * TYPES.length)]!, step));
        const next = computeScores(findings);
        for (const key of ['score', 'ssl_score', 'headers_score', 'endpoints_score'] as const) {
          expect(next[key]).toBeLessThanOrEqual(previous[key]);
          expect(next[key]).toBeGreaterThanOrEqual(0);
        }
        expect(next.grade).toBe(gradeFor(next.score));
        previous = next;
      }
    }
  });
});
