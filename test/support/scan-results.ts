import type { FindingType } from '../../scanner/catalog/index.ts';
import { toFinding } from '../../scanner/report/findings.ts';
import { TESTS, type Coverage, type ScanResult } from '../../scanner/index.ts';
import { computeScores } from '../../scanner/report/scoring.ts';
import { onePage } from '../../scanner/crawl/crawl.ts';

/** Every test completed on the URL's host and origin: a scan that re-checked everything there. */
export function completeCoverage(url: string): Coverage[] {
  const { hostname, origin } = new URL(url);
  return TESTS.map((test) => ({
    test: test.name,
    subject: test.subject === 'host' ? hostname : origin,
    status: 'completed',
    reason: null,
  }));
}

/** What a one-page scan of the URL reports of its pages: the start page, examined. */
export function onePageOf(url: string): Pick<ScanResult, 'crawl' | 'pages' | 'examined'> {
  return { ...onePage(url, 200, 'text/html'), examined: [url] };
}

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
    coverage: completeCoverage(url),
    unreachable: null,
    passive: false,
    requests_made: 1,
    expiries: [],
    internetnl: null,
    mail: null,
    ...onePageOf(url),
  };
}
