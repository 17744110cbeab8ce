import type { FindingType } from '../../scanner/catalog/index.ts';
import { toFinding } from '../../scanner/report/findings.ts';
import type { ScanResult } from '../../scanner/index.ts';
import { computeScores } from '../../scanner/report/scoring.ts';

/** A scan result as the scanner would give it, with these findings, for storing without a scan. */
export function scanResult(url: string, findings: Array<[FindingType, string]>, scannedAt = new Date()): ScanResult {
  const scanFindings = findings.map(([type, endpoint]) => toFinding({ type, endpoint, actual_value: null }));
  return {
    url,
    ...computeScores(scanFindings),
    detected_platform: null,
    detected_server: null,
    scanned_at: scannedAt.toISOString(),
    findings: scanFindings,
    failed_checks: [],
    requests_made: 1,
    expiries: [],
    internetnl: null,
  };
}
