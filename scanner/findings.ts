import { CATALOG } from './catalog/index.ts';
import type { Observation, ScanFinding } from './types.ts';

/** A check's observation completed with its catalog entry's texts. */
export function toFinding(observation: Observation): ScanFinding {
  const { observatory: _observatory, ncsc: _ncsc, ...texts } = CATALOG[observation.type];
  return { finding_type: observation.type, ...texts, endpoint: observation.endpoint, actual_value: observation.actual_value };
}
