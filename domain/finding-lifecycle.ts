import { escalates } from './finding-families.ts';
import type { FindingStatus, FindingType } from './vocabulary.ts';

/** A finding is the same finding when its type and endpoint are: one per site and place. */
export interface FindingIdentity {
  finding_type: FindingType;
  endpoint: string;
}

export interface FindingDiff<Previous, Observed> {
  /** Seen for the first time on the site. */
  open: Observed[];
  /** Seen again while open, in progress or accepted: status unchanged. */
  keep: Array<{ previous: Previous; observed: Observed }>;
  /** Seen again after being resolved: open once more. */
  reopen: Array<{ previous: Previous; observed: Observed }>;
  /** Open or in progress, on the host this scan covered, and no longer seen. */
  resolve: Previous[];
  /**
   * Open or in progress and no longer seen, because a further stage of the same condition was seen
   * at the same endpoint (certificate expiry 30 → 14 days → expired): resolved too, but as replaced.
   * The observed finding is also in `open` or `reopen`.
   */
  escalate: Array<{ previous: Previous; observed: Observed }>;
}

const identity = (f: FindingIdentity) => `${f.finding_type}\n${f.endpoint}`;

/** The host part of a URL, as diffFindings compares a finding's endpoint with the scanned one. */
export function scannedHostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

/** Statuses a rescan may resolve; an accepted risk stays accepted when it disappears. */
const RESOLVABLE: ReadonlySet<FindingStatus> = new Set(['OPEN', 'IN_PROGRESS']);

/**
 * The finding lifecycle of one scan, without I/O: what the observed findings do to the site's
 * previous ones. A scan of one host (a subdomain override) resolves nothing on another host.
 */
export function diffFindings<
  Previous extends FindingIdentity & { status: FindingStatus },
  Observed extends FindingIdentity,
>(previous: readonly Previous[], observed: readonly Observed[], scannedHost: string): FindingDiff<Previous, Observed> {
  const known = new Map(previous.map((f) => [identity(f), f]));
  const diff: FindingDiff<Previous, Observed> = { open: [], keep: [], reopen: [], resolve: [], escalate: [] };
  const seen = new Set<string>();
  for (const finding of observed) {
    const key = identity(finding);
    if (seen.has(key)) continue;
    seen.add(key);
    const before = known.get(key);
    if (!before) diff.open.push(finding);
    else if (before.status === 'RESOLVED') diff.reopen.push({ previous: before, observed: finding });
    else diff.keep.push({ previous: before, observed: finding });
  }
  const arrived = [...diff.open, ...diff.reopen.map((r) => r.observed)];
  for (const [key, before] of known) {
    if (seen.has(key) || !RESOLVABLE.has(before.status) || scannedHostOf(before.endpoint) !== scannedHost) continue;
    const successor = arrived.find((f) => escalates(before, f));
    if (successor) diff.escalate.push({ previous: before, observed: successor });
    else diff.resolve.push(before);
  }
  return diff;
}
