import type { CheckName } from '../scanner/index.ts';
import type { FindingRecord, ScanRow } from '../db/scans.ts';
import type { FindingStatus, Grade, Severity, Category } from '../domain/vocabulary.ts';

/** The scan create object of SPEC 2.3 (the POST /scan response and the scan_completed data). */
export function scanCreatedView(scan: ScanRow) {
  return {
    scan_id: scan.id,
    site_id: scan.site_id,
    url: scan.url,
    score: scan.score,
    grade: scan.grade as Grade,
    counts: { critical: scan.critical_count, high: scan.high_count, medium: scan.medium_count, low: scan.low_count },
    findings_count: scan.findings_count,
    scanned_at: scan.scanned_at,
    detail_url: `/api/agent/scans/${scan.id}`,
  };
}

/** The stored JSON list of checks that could not run. */
export function failedChecksOf(scan: Pick<ScanRow, 'failed_checks'>): CheckName[] {
  return JSON.parse(scan.failed_checks) as CheckName[];
}

/** The finding object of SPEC 2.4 (webhook data for finding_new and finding_resolved). */
export function findingView(row: FindingRecord, site: { name: string; url: string }) {
  return {
    id: row.id,
    scan_id: row.scan_id,
    site_id: row.site_id,
    site_name: site.name,
    site_url: site.url,
    finding_type: row.finding_type,
    category: row.category as Category,
    severity: row.severity as Severity,
    status: row.status as FindingStatus,
    title: row.title,
    description: row.description,
    impact: row.impact,
    remediation: row.remediation,
    endpoint: row.endpoint,
    actual_value: row.actual_value,
    expected_value: row.expected_value,
    reference_url: row.reference_url,
    created_at: row.created_at,
  };
}
