import { escalates } from './finding-families.ts';
import type { FindingStatus, FindingType, ScanChangeKind, Severity } from './vocabulary.ts';

/** A finding is the same finding when its type and endpoint are: one per site and place. */
export interface FindingIdentity {
  finding_type: FindingType;
  endpoint: string;
}

/** A finding the site already has, as the plan needs it. */
export interface KnownFinding extends FindingIdentity {
  id: string;
  status: FindingStatus;
  severity: Severity;
}

/** A finding as this scan observed it. */
export interface ObservedFinding extends FindingIdentity {
  severity: Severity;
}

type Pair<P, O> = { previous: P; observed: O };

/** What one scan does to its site's findings, decided without I/O (applied by db/scans.ts recordScan). */
export interface ScanPlan<P extends KnownFinding, O extends ObservedFinding> {
  /** Seen for the first time on the site, with the id the new finding gets. */
  open: Array<{ id: string; observed: O }>;
  /** Seen again while open, in progress or accepted: status unchanged. */
  keep: Array<Pair<P, O>>;
  /** Seen again after being resolved: open once more. */
  reopen: Array<Pair<P, O>>;
  /** Open or in progress, re-checked by this scan, and no longer seen. */
  resolve: P[];
  /**
   * Open or in progress and no longer seen, because a further stage of the same condition was seen
   * at the same endpoint (certificate expiry 30 → 14 days → expired): resolved too, but as replaced.
   * The observed finding is also in `open` or `reopen`.
   */
  escalate: Array<Pair<P, O>>;
  /** Open or in progress, not seen, and not re-checked: no test that can report it completed on its place. Kept as they are. */
  unverified: P[];
  /** Kept findings seen with another severity. */
  severityChanged: Array<Pair<P, O>>;
}

/** A finding's place by default: its endpoint. */
const byEndpoint = (f: FindingIdentity) => `${f.finding_type}\n${f.endpoint}`;

/** Statuses a rescan may resolve; an accepted risk stays accepted when it disappears. */
const RESOLVABLE: ReadonlySet<FindingStatus> = new Set(['OPEN', 'IN_PROGRESS']);

/**
 * The finding lifecycle of one scan: what the observed findings do to the site's previous ones. A
 * finding that was not seen is resolved (or escalated) only when `rechecked` says a test that can
 * report it completed on its place in this scan; otherwise it is unverified and keeps its status.
 */
export function planFindings<P extends KnownFinding, O extends ObservedFinding>(
  previous: readonly P[],
  observed: readonly O[],
  rechecked: (finding: P) => boolean,
  newId: () => string,
  identity: (finding: FindingIdentity) => string = byEndpoint,
): ScanPlan<P, O> {
  // Two stored findings with one identity (a page-level finding seen at two start pages before
  // crawling): the one still open, else the latest, is the finding; the other stands alone.
  const known = new Map<string, P>();
  const ranked = [...previous].sort((a, b) => Number(a.status === 'RESOLVED') - Number(b.status === 'RESOLVED'));
  for (const f of ranked) {
    const key = identity(f);
    known.set(known.has(key) ? `${key}\n${f.id}` : key, f);
  }
  const plan: ScanPlan<P, O> = {
    open: [],
    keep: [],
    reopen: [],
    resolve: [],
    escalate: [],
    unverified: [],
    severityChanged: [],
  };
  const seen = new Set<string>();
  for (const finding of observed) {
    const key = identity(finding);
    if (seen.has(key)) continue;
    seen.add(key);
    const before = known.get(key);
    if (!before) plan.open.push({ id: newId(), observed: finding });
    else if (before.status === 'RESOLVED') plan.reopen.push({ previous: before, observed: finding });
    else {
      plan.keep.push({ previous: before, observed: finding });
      if (before.severity !== finding.severity) plan.severityChanged.push({ previous: before, observed: finding });
    }
  }
  const arrived = [...plan.open.map((o) => o.observed), ...plan.reopen.map((r) => r.observed)];
  for (const [key, before] of known) {
    if (seen.has(key) || !RESOLVABLE.has(before.status)) continue;
    if (!rechecked(before)) {
      plan.unverified.push(before);
      continue;
    }
    const successor = arrived.find((f) => escalates(before, f));
    if (successor) plan.escalate.push({ previous: before, observed: successor });
    else plan.resolve.push(before);
  }
  return plan;
}

/** One row of a scan's recorded changes (`scan_changes`). */
export interface ChangeRow {
  finding_id: string;
  kind: ScanChangeKind;
  from_severity: Severity | null;
  to_severity: Severity | null;
  from_finding_id: string | null;
}

/**
 * The scan's changes as recorded: the successor of an escalation is reported as the escalation,
 * not as new or regressed; unverified findings are listed so a reader knows what was not re-checked.
 */
export function changeRowsOf<P extends KnownFinding, O extends ObservedFinding>(plan: ScanPlan<P, O>): ChangeRow[] {
  const idOf = new Map<O, string>([
    ...plan.open.map(({ id, observed }) => [observed, id] as const),
    ...plan.reopen.map(({ previous, observed }) => [observed, previous.id] as const),
  ]);
  const escalations = plan.escalate.map(({ previous, observed }) => ({
    finding_id: idOf.get(observed)!,
    kind: 'escalated' as const,
    from_severity: previous.severity,
    to_severity: observed.severity,
    from_finding_id: previous.id,
  }));
  const successors = new Set(escalations.map((e) => e.finding_id));
  const row = (finding_id: string, kind: ScanChangeKind, from: Severity | null, to: Severity | null): ChangeRow => ({
    finding_id,
    kind,
    from_severity: from,
    to_severity: to,
    from_finding_id: null,
  });
  return [
    ...plan.open.filter((o) => !successors.has(o.id)).map((o) => row(o.id, 'new', null, o.observed.severity)),
    ...plan.reopen
      .filter((r) => !successors.has(r.previous.id))
      .map((r) => row(r.previous.id, 'regressed', null, r.observed.severity)),
    ...plan.resolve.map((f) => row(f.id, 'resolved', f.severity, null)),
    ...plan.severityChanged.map((c) =>
      row(c.previous.id, 'severity_changed', c.previous.severity, c.observed.severity),
    ),
    ...escalations,
    ...plan.unverified.map((f) => row(f.id, 'unverified', f.severity, f.severity)),
  ];
}

/** Why a scan changed a finding's status, as its history shows it. */
export const SCAN_STATUS_REASONS = {
  new: 'Voor het eerst gezien door een scan.',
  regressed: 'Opnieuw gezien door een scan nadat de bevinding was opgelost.',
  resolved: 'Niet meer gezien door een scan die deze plek volledig heeft gecontroleerd.',
  escalated: 'Vervangen door een ernstiger bevinding van dezelfde soort.',
} as const satisfies Partial<Record<ScanChangeKind, string>>;

/** The status history entries of a plan: every finding it opens, reopens, resolves or escalates. */
export function statusChangesOf<P extends KnownFinding, O extends ObservedFinding>(
  plan: ScanPlan<P, O>,
): Array<{ finding_id: string; status: FindingStatus; reason: string }> {
  return [
    ...plan.open.map((o) => ({ finding_id: o.id, status: 'OPEN' as const, reason: SCAN_STATUS_REASONS.new })),
    ...plan.reopen.map((r) => ({
      finding_id: r.previous.id,
      status: 'OPEN' as const,
      reason: SCAN_STATUS_REASONS.regressed,
    })),
    ...plan.resolve.map((f) => ({
      finding_id: f.id,
      status: 'RESOLVED' as const,
      reason: SCAN_STATUS_REASONS.resolved,
    })),
    ...plan.escalate.map((e) => ({
      finding_id: e.previous.id,
      status: 'RESOLVED' as const,
      reason: SCAN_STATUS_REASONS.escalated,
    })),
  ];
}

/** The host part of a URL (the sweeper's look-up of the latest scan of a finding's host). */
export function scannedHostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}
