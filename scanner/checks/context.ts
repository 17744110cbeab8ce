import type { HtmlFacts } from '../probes/html.ts';
import type { FindingType } from '../catalog/index.ts';
import type { Observation, ScanEvidence } from '../types.ts';

/** Evidence plus what is derived from it once (parsed HTML) for the pure checks. */
export interface AnalysisContext {
  evidence: ScanEvidence;
  html: HtmlFacts | null;
}

export type Check = (ctx: AnalysisContext) => Observation[];

export function observe(type: FindingType, endpoint: string, actual_value: string | null = null): Observation {
  return { type, endpoint, actual_value };
}
