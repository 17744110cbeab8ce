import type { SiteWithLatestScan } from '../db/sites.ts';
import type { Grade, Platform } from '../domain/vocabulary.ts';

/** A site as agents see it: its own fields and its latest scan in one object. */
export function siteView(row: SiteWithLatestScan) {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    detected_platform: row.detected_platform as Platform | null,
    created_at: row.created_at,
    latest_scan:
      row.latest_scan_id === null
        ? null
        : { id: row.latest_scan_id, score: row.latest_score as number, grade: row.latest_grade as Grade, scanned_at: row.latest_scanned_at as string },
  };
}
