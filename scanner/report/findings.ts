import { CATALOG } from '../catalog/index.ts';
import { displayText } from './display-text.ts';
import type { Observation, ScanFinding } from '../types.ts';

/** A check's observation completed with its catalog entry's texts. */
export function toFinding(observation: Observation): ScanFinding {
  const { observatory: _observatory, ncsc: _ncsc, ...texts } = CATALOG[observation.type];
  // Checks judged the raw evidence; what leaves the scanner is the text as it may be shown.
  return {
    finding_type: observation.type,
    ...texts,
    endpoint: displayText(observation.endpoint),
    actual_value: observation.actual_value === null ? null : displayText(observation.actual_value),
  };
}
