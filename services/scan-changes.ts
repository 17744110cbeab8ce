import type { z } from 'zod';
import type { ScanChangesInput, ScanGetInput } from '../routers/scans/schemas.ts';
import type { SiteGetInput } from '../routers/sites/schemas.ts';
import { changeCountsOf, findingLabels, findingsSeenBy, recordedChanges, scanBefore } from '../db/scan-changes.ts';
import { findScan, listScans } from '../db/scans.ts';
import { findSite } from '../db/sites.ts';
import { changeCounts, type ScanChangeKind } from '../domain/vocabulary.ts';
import type { DB } from '../db/database.ts';
import { assertPermission, type Actor } from '../domain/actor.ts';
import { Invalid, NotFound } from '../domain/errors.ts';
import { compareScans, type ScanChanges } from '../domain/scan-comparison.ts';
import type { ServiceDeps } from './deps.ts';

type StoredScan = NonNullable<Awaited<ReturnType<typeof findScan>>>;

const noChanges = (comparedTo: string | null): ScanChanges => ({
  compared_to_scan_id: comparedTo,
  new: [],
  regressed: [],
  resolved: [],
  severity_changed: [],
  escalated: [],
  unverified: [],
});

/** Compares two stored scans of one site (any order); what this scan could not re-check is not called resolved. */
async function compareStored(db: DB, scan: StoredScan, against: { id: string; scanned_at: string }) {
  const [before, after, recorded] = await Promise.all([
    findingsSeenBy(db, against.id),
    findingsSeenBy(db, scan.id),
    recordedChanges(db, scan.id, 'unverified'),
  ]);
  const unverified = new Set(recorded.map((row) => row.finding_id));
  return compareScans({ id: against.id, scanned_at: against.scanned_at, findings: before }, after, unverified);
}

/**
 * How a scan changed its site's findings, as recorded when it was stored: against the site's
 * previous scan, every finding `new` for a first scan. Scans stored before changes were recorded
 * are compared with the scan before them now.
 */
export async function changesOf(db: DB, scan: StoredScan & { tenant_id: string }): Promise<ScanChanges> {
  if (scan.previous_scan_id === null) {
    const earlier = await scanBefore(db, scan);
    if (earlier) return compareStored(db, scan, earlier);
  }
  const changes = noChanges(scan.previous_scan_id);
  for (const row of await recordedChanges(db, scan.id)) {
    if (row.kind === 'severity_changed')
      changes.severity_changed.push({ finding_id: row.finding_id, from: row.from_severity!, to: row.to_severity! });
    else if (row.kind === 'escalated')
      changes.escalated.push({ finding_id: row.finding_id, from_finding_id: row.from_finding_id! });
    else changes[row.kind].push(row.finding_id);
  }
  return changes;
}

/**
 * GET /scans/{scan_id}/changes: the recorded changes of a scan, or with `against` the changes from
 * any other scan of the same site to this one.
 */
export async function getScanChanges(deps: ServiceDeps, actor: Actor, input: z.infer<typeof ScanChangesInput>) {
  assertPermission(actor, 'read_scans');
  const scan = await findScan(deps.db, actor.tenantId, input.scan_id);
  if (!scan) throw new NotFound('Scan');
  const withTenant = { ...scan, tenant_id: actor.tenantId };
  if (input.against === undefined) return changesOf(deps.db, withTenant);
  const against = await findScan(deps.db, actor.tenantId, input.against);
  if (!against) throw new NotFound('Scan (against)');
  if (against.site_id !== scan.site_id) throw new Invalid('against: vergelijk alleen scans van dezelfde site.');
  if (against.id === scan.id) return noChanges(scan.id);
  return compareStored(deps.db, withTenant, against);
}

/** Scans a site's timeline shows. */
const TIMELINE_SCANS = 30;

/** Dashboard: the site's latest scans, newest first, each with how many findings each kind of change touched. */
export async function siteTimeline(deps: ServiceDeps, actor: Actor, input: z.infer<typeof SiteGetInput>) {
  assertPermission(actor, 'read_scans');
  if (!(await findSite(deps.db, actor.tenantId, input.site_id))) throw new NotFound('Site');
  const { rows } = await listScans(
    deps.db,
    actor.tenantId,
    { siteId: input.site_id },
    { limit: TIMELINE_SCANS, offset: 0 },
  );
  const counts = await changeCountsOf(
    deps.db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    scanned_at: row.scanned_at,
    grade: row.grade,
    score: row.score,
    trigger: row.trigger,
    changes: changeCounts(counts.filter((c) => c.scan_id === row.id).map((c) => [c.kind, Number(c.n)] as const)),
  }));
}

/** Dashboard: a scan's changes with the title, severity and place of each finding they name. */
export async function scanChangeList(deps: ServiceDeps, actor: Actor, input: z.infer<typeof ScanGetInput>) {
  const changes = await getScanChanges(deps, actor, input);
  const entries: Array<{ kind: ScanChangeKind; finding_id: string; detail: string | null }> = [
    ...changes.new.map((id) => ({ kind: 'new' as const, finding_id: id, detail: null })),
    ...changes.regressed.map((id) => ({ kind: 'regressed' as const, finding_id: id, detail: null })),
    ...changes.resolved.map((id) => ({ kind: 'resolved' as const, finding_id: id, detail: null })),
    ...changes.severity_changed.map((c) => ({
      kind: 'severity_changed' as const,
      finding_id: c.finding_id,
      detail: `${c.from} → ${c.to}`,
    })),
    ...changes.escalated.map((c) => ({
      kind: 'escalated' as const,
      finding_id: c.finding_id,
      detail: c.from_finding_id,
    })),
    ...changes.unverified.map((id) => ({ kind: 'unverified' as const, finding_id: id, detail: null })),
  ];
  const labels = new Map(
    (
      await findingLabels(
        deps.db,
        actor.tenantId,
        entries.map((e) => e.finding_id),
      )
    ).map((row) => [row.id, row]),
  );
  return {
    compared_to_scan_id: changes.compared_to_scan_id,
    entries: entries.map((entry) => ({
      ...entry,
      title: labels.get(entry.finding_id)?.title ?? '',
      severity: labels.get(entry.finding_id)?.severity ?? null,
      endpoint: labels.get(entry.finding_id)?.endpoint ?? '',
    })),
  };
}
