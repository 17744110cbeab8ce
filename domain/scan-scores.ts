import { computeScores, type Scores, type ScoredFinding } from '../scanner/report/scoring.ts';

/**
 * A scan's scores: over what it observed and over the open findings it could not re-check, which
 * still count against the site. A scan that reached nothing is never an all-clear.
 */
export function scoresWith(observed: readonly ScoredFinding[], unverified: readonly ScoredFinding[]): Scores {
  return computeScores([...observed, ...unverified]);
}
