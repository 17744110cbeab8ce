import { COMPONENT_KIND_NAMES, componentFindingType, severitiesOf } from '../scanner/vulndata/component-kinds.ts';
import type { FindingType } from './vocabulary.ts';

/**
 * Findings that are stages of one condition, mildest first. When a scan sees a later stage where
 * an earlier one was (same site, same endpoint), the earlier finding is `escalated` into the later
 * one instead of being reported as resolved plus new (docs/monitoring.md).
 */
export const FINDING_FAMILIES = {
  certificate_expiry: [
    'tls_certificate_expires_within_30_days',
    'tls_certificate_expires_within_14_days',
    'tls_certificate_expired',
  ],
  intermediate_expiry: ['tls_intermediate_certificate_expires_within_30_days', 'tls_intermediate_certificate_expired'],
  security_txt_expiry: ['security_txt_expires_soon', 'security_txt_expired'],
  // A known-vulnerable component whose data raises its severity (a feed update) is escalated, not resolved and reopened.
  ...Object.fromEntries(
    COMPONENT_KIND_NAMES.map((kind) => [
      `known_vulnerable_${kind}`,
      severitiesOf(kind).map((severity) => componentFindingType(kind, severity)),
    ]),
  ),
} as const satisfies Record<string, readonly FindingType[]>;

const STAGE = new Map<FindingType, { family: string; stage: number }>(
  Object.entries(FINDING_FAMILIES).flatMap(([family, types]) =>
    types.map((type, stage) => [type as FindingType, { family, stage }] as const),
  ),
);

type Placed = { finding_type: FindingType; endpoint: string };

/** Whether `later` is a further stage, at the same endpoint, of the condition `earlier` is a stage of. */
export function escalates(earlier: Placed, later: Placed): boolean {
  const from = STAGE.get(earlier.finding_type);
  const to = STAGE.get(later.finding_type);
  return (
    earlier.endpoint === later.endpoint &&
    from !== undefined &&
    to !== undefined &&
    from.family === to.family &&
    to.stage > from.stage
  );
}
