import type { SeenFinding } from '../domain/scan-comparison.ts';
import { scannedHostOf } from '../domain/finding-lifecycle.ts';
import type { ScanChangeKind } from '../domain/vocabulary.ts';
import type { DB } from './database.ts';

/**
 * The changes recorded when a scan was stored (of one kind, or all), most severe first (as the scan
 * lists its findings), with the type and category of the finding each names.
 */
export async function recordedChanges(db: DB, scanId: string, kind?: ScanChangeKind) {
  let query = db
    .selectFrom('scan_changes')
    .innerJoin('findings', 'findings.id', 'scan_changes.finding_id')
    .selectAll('scan_changes')
    .select(['findings.finding_type', 'findings.category'])
    .where('scan_changes.scan_id', '=', scanId);
  if (kind) query = query.where('scan_changes.kind', '=', kind);
  return query
    .orderBy('findings.severity_rank')
    .orderBy('findings.finding_type')
    .orderBy('findings.endpoint')
    .execute();
}

/** The findings a scan saw, with the severity it saw (the finding's own for scans stored before that was kept). */
export async function findingsSeenBy(db: DB, scanId: string): Promise<SeenFinding[]> {
  const rows = await db
    .selectFrom('scan_findings')
    .innerJoin('findings', 'findings.id', 'scan_findings.finding_id')
    .select([
      'scan_findings.finding_id',
      'findings.finding_type',
      'findings.endpoint',
      'findings.severity as current_severity',
      'scan_findings.severity',
      'findings.created_at',
    ])
    .where('scan_findings.scan_id', '=', scanId)
    .orderBy('findings.severity_rank')
    .orderBy('findings.finding_type')
    .orderBy('findings.endpoint')
    .execute();
  return rows.map(({ current_severity, severity, ...row }) => ({ ...row, severity: severity ?? current_severity }));
}

/** The site's scan just before one, by time (for scans stored before the previous scan was kept). */
export async function scanBefore(db: DB, scan: { tenant_id: string; site_id: string; scanned_at: string; id: string }) {
  const { scanned_at: scannedAt, id } = scan;
  return db
    .selectFrom('scans')
    .select(['id', 'scanned_at'])
    .where('tenant_id', '=', scan.tenant_id)
    .where('site_id', '=', scan.site_id)
    .where((eb) =>
      eb.or([eb('scanned_at', '<', scannedAt), eb.and([eb('scanned_at', '=', scannedAt), eb('id', '<', id)])]),
    )
    .orderBy('scanned_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * The latest scan of a site that covered `host` and whether it saw the finding; null when no kept
 * scan covered the host (the latest 50 are looked at: scans of other hosts of a site are rare).
 */
export async function latestSightingOnHost(
  db: DB,
  finding: { tenant_id: string; site_id: string; id: string },
  host: string,
): Promise<{ scan_id: string; saw: boolean } | null> {
  const scans = await db
    .selectFrom('scans')
    .select(['id', 'url'])
    .where('tenant_id', '=', finding.tenant_id)
    .where('site_id', '=', finding.site_id)
    .orderBy('scanned_at', 'desc')
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
  const latest = scans.find((scan) => scannedHostOf(scan.url) === host);
  if (!latest) return null;
  const seen = await db
    .selectFrom('scan_findings')
    .select('finding_id')
    .where('scan_id', '=', latest.id)
    .where('finding_id', '=', finding.id)
    .executeTakeFirst();
  return { scan_id: latest.id, saw: seen !== undefined };
}

/** Counts per kind of change of some scans (the dashboard's timeline). */
export async function changeCountsOf(db: DB, scanIds: readonly string[]) {
  if (scanIds.length === 0) return [];
  return db
    .selectFrom('scan_changes')
    .select(['scan_id', 'kind', (eb) => eb.fn.countAll<number>().as('n')])
    .where('scan_id', 'in', scanIds)
    .groupBy(['scan_id', 'kind'])
    .execute();
}

/** Titles and places of some of the tenant's findings, to name the findings a change lists. */
export async function findingLabels(db: DB, tenantId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('findings')
    .innerJoin('finding_texts', 'finding_texts.id', 'findings.text_id')
    .select(['findings.id', 'finding_texts.title', 'findings.severity', 'findings.endpoint'])
    .where('findings.tenant_id', '=', tenantId)
    .where('findings.id', 'in', ids)
    .execute();
}
