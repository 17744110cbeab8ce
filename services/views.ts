import type { SiteVerification } from './verification.ts';
import type { CheckName } from '../scanner/index.ts';
import type { FindingRecord, ScanRow } from '../db/scans.ts';
import type { SiteWithLatestScan } from '../db/sites.ts';
import type { SuggestionRow } from '../db/suggestions.ts';
import type { WebhookRow } from '../db/webhooks.ts';
import { scanDetailPath } from '../domain/endpoints.ts';
import type { FindingEventChangeKind, FindingStatus, Severity, WebhookEvent } from '../domain/vocabulary.ts';
import type { AcceptanceRow } from '../db/acceptances.ts';
import { effectiveMailDomain } from './mail.ts';

// The objects of docs/spec.md built from stored rows, one function per object: the API, webhook payloads
// and the admin CLI all show the same shape.

/** The scan create object of docs/spec.md 2.3 (the POST /scan response and the scan_completed data). */
export function scanCreatedView(scan: ScanRow) {
  return {
    scan_id: scan.id,
    site_id: scan.site_id,
    url: scan.url,
    score: scan.score,
    grade: scan.grade,
    counts: { critical: scan.critical_count, high: scan.high_count, medium: scan.medium_count, low: scan.low_count },
    findings_count: scan.findings_count,
    scanned_at: scan.scanned_at,
    detail_url: scanDetailPath(scan.id),
  };
}

/** The stored JSON list of checks that could not run. */
export function failedChecksOf(scan: Pick<ScanRow, 'failed_checks'>): CheckName[] {
  return JSON.parse(scan.failed_checks);
}

/** A finding row with the site it belongs to. */
export type FindingViewRow = Omit<
  FindingRecord,
  'tenant_id' | 'severity_rank' | 'text_id' | 'last_seen_at' | 'resolved_at' | 'affected_urls'
> & { site_name: string; site_url: string };

/** The finding object of docs/spec.md 2.4 (list items, scan detail, finding_new and finding_resolved data). */
export function findingView(row: FindingViewRow) {
  return {
    id: row.id,
    scan_id: row.scan_id,
    site_id: row.site_id,
    site_name: row.site_name,
    site_url: row.site_url,
    finding_type: row.finding_type,
    category: row.category,
    severity: row.severity,
    status: row.status,
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

/** A risk acceptance as the API and the acceptance events show it. */
export function acceptanceView(row: AcceptanceRow & { owner_email: string | null }) {
  return {
    reason: row.reason,
    owner: { id: row.owner_id, email: row.owner_email },
    expires_at: row.expires_at,
    created_by: row.created_by,
    created_at: row.created_at,
  };
}

/** How a finding event came about: `data.change` beside SPEC's finding object (docs/monitoring.md). */
export interface FindingEventChange {
  kind: FindingEventChangeKind;
  scan_id: string | null;
  previous_scan_id: string | null;
  previous_status: FindingStatus | null;
  previous_severity: Severity | null;
}

/** The data of finding_new, finding_resolved and finding_severity_changed. */
export const findingEventData = (finding: ReturnType<typeof findingView>, change: FindingEventChange) => ({
  ...finding,
  change,
});

/** A site as agents see it: its own fields and its latest scan in one object. */
export function siteView(row: SiteWithLatestScan, verification: SiteVerification) {
  const { latest_scan_id: id, latest_score: score, latest_grade: grade, latest_scanned_at: scannedAt } = row;
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    detected_platform: row.detected_platform,
    created_at: row.created_at,
    latest_scan:
      id === null || score === null || grade === null || scannedAt === null
        ? null
        : { id, score, grade, scanned_at: scannedAt },
    mail_domain: effectiveMailDomain(row),
    scan_interval_hours: row.scan_interval_hours,
    next_scan_at: row.next_scan_at,
    verification,
    max_pages: row.max_pages,
    include_paths: JSON.parse(row.include_paths) as string[],
    exclude_paths: JSON.parse(row.exclude_paths) as string[],
  };
}

/** The suggestion list item of docs/spec.md 2.5: optional fields appear only when they have a value. */
export function suggestionListItem(row: SuggestionRow) {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    description: row.description,
    ...(row.file_path === null ? {} : { file_path: row.file_path }),
    status: row.status,
    ...(row.review_notes === null ? {} : { review_notes: row.review_notes }),
    ...(row.reviewed_at === null ? {} : { reviewed_at: row.reviewed_at }),
    created_at: row.created_at,
  };
}

/** A webhook as the API and the operators see it: never the secret. */
export function webhookView(row: WebhookRow) {
  const events: WebhookEvent[] = JSON.parse(row.events);
  return {
    id: row.id,
    url: row.url,
    events,
    enabled: row.enabled === 1,
    last_triggered_at: row.last_triggered_at,
    failure_count: row.failure_count,
    created_at: row.created_at,
  };
}
