import { escalates } from './finding-families.ts';
import type { FindingType, Severity } from './vocabulary.ts';

/** A finding as one scan saw it. */
export interface SeenFinding {
  finding_id: string;
  finding_type: FindingType;
  endpoint: string;
  severity: Severity;
  /** When the site first had the finding. */
  created_at: string;
}

/** How a scan changed its site's findings against another scan (the API's `changes`). */
export interface ScanChanges {
  compared_to_scan_id: string | null;
  new: string[];
  regressed: string[];
  resolved: string[];
  severity_changed: Array<{ finding_id: string; from: Severity; to: Severity }>;
  escalated: Array<{ finding_id: string; from_finding_id: string }>;
  /** Open findings the later scan could not re-check (its coverage): neither seen nor resolved. */
  unverified: string[];
}

/**
 * The changes from what scan `before` saw to what scan `after` saw, without I/O. A finding only
 * `after` saw is `regressed` when the site already had it when `before` ran (seen, then gone, now
 * back), else `new`; a further stage of a condition `before` saw at the same endpoint is `escalated`.
 */
export function compareScans(
  before: { id: string; scanned_at: string; findings: readonly SeenFinding[] },
  after: readonly SeenFinding[],
  unverifiedAfter: ReadonlySet<string> = new Set(),
): ScanChanges {
  const earlier = new Map(before.findings.map((f) => [f.finding_id, f]));
  const later = new Set(after.map((f) => f.finding_id));
  const changes: ScanChanges = {
    compared_to_scan_id: before.id,
    new: [],
    regressed: [],
    resolved: [],
    severity_changed: [],
    escalated: [],
    unverified: [],
  };
  const gone = before.findings.filter((f) => !later.has(f.finding_id));
  const replaced = new Set<string>();
  for (const finding of after) {
    const was = earlier.get(finding.finding_id);
    if (was) {
      if (was.severity !== finding.severity)
        changes.severity_changed.push({ finding_id: finding.finding_id, from: was.severity, to: finding.severity });
      continue;
    }
    const predecessor = gone.find((f) => !replaced.has(f.finding_id) && escalates(f, finding));
    if (predecessor) {
      replaced.add(predecessor.finding_id);
      changes.escalated.push({ finding_id: finding.finding_id, from_finding_id: predecessor.finding_id });
    } else if (finding.created_at <= before.scanned_at) changes.regressed.push(finding.finding_id);
    else changes.new.push(finding.finding_id);
  }
  const notSeen = gone.filter((f) => !replaced.has(f.finding_id)).map((f) => f.finding_id);
  changes.resolved = notSeen.filter((id) => !unverifiedAfter.has(id));
  changes.unverified = notSeen.filter((id) => unverifiedAfter.has(id));
  return changes;
}
