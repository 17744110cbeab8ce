import { createHash } from 'node:crypto';
import type { CatalogEntry } from '../catalog/entry.ts';
import type { CoverageStatus, Severity } from '../vocabulary.ts';

// A scan as a SARIF 2.1.0 log (OASIS), shaped for GitHub code scanning: one rule per finding type,
// one result per finding. Findings are about URLs, not files, and GitHub rejects an upload whose
// artifact URI is an https:// URL, so each location is the URL's path relative to a uriBaseId that
// originalUriBaseIds declares as the URL's origin, and the full URL is the logical location (ZAP
// and nuclei both put the URL in the artifact URI, which GitHub refuses).

export const SARIF_CONTENT_TYPE = 'application/sarif+json';
const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

/** GitHub code scanning's bands: >= 9.0 critical, >= 7.0 high, >= 4.0 medium, else low. */
export const SECURITY_SEVERITY: Record<Severity, string> = { CRITICAL: '9.5', HIGH: '8.0', MEDIUM: '5.5', LOW: '3.0' };
const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = {
  CRITICAL: 'error',
  HIGH: 'error',
  MEDIUM: 'warning',
  LOW: 'note',
};

/** What a finding needs to become a result: the API's finding and the scanner's alike. */
export type SarifFinding = Omit<CatalogEntry, 'observatory' | 'ncsc'> & {
  finding_type: string;
  endpoint: string;
  actual_value: string | null;
  /** Against the previous scan (SARIF 2.1.0 section 3.27.24); left out when unknown. */
  baselineState?: 'new' | 'unchanged' | 'updated';
};

export interface SarifScan {
  url: string;
  score: number;
  grade: string;
  scanned_at: string;
  /** What the scan's tests covered; the failed and skipped entries become tool execution notifications. */
  coverage: ReadonlyArray<{ test: string; subject: string; status: CoverageStatus; reason: string | null }>;
  /** Why the scan reached no page of the site; null when it did. */
  unreachable: string | null;
  /** Intrusive tests were skipped for want of proof of control. */
  passive: boolean;
  findings: readonly SarifFinding[];
}

/** How a test that did not complete is told: failed is a warning (findings may be missing), skipped a note. */
const NOTIFIED: Partial<Record<CoverageStatus, { level: 'warning' | 'note'; said: string }>> = {
  failed: { level: 'warning', said: 'niet voltooid; bevindingen kunnen ontbreken en blijven open' },
  skipped: { level: 'note', said: 'overgeslagen; bevindingen blijven open' },
};

export interface SarifTool {
  name: string;
  version: string;
  informationUri: string;
}

/** A URL without what does not name the resource: lowercase scheme and host, no default port, query or fragment. */
export function normalisedUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return raw;
  }
}

/** Stable across rescans: the same finding type at the same URL matches the same alert. */
export function fingerprint(findingType: string, endpoint: string): string {
  return `${createHash('sha256')
    .update(`${findingType} ${normalisedUrl(endpoint)}`)
    .digest('hex')
    .slice(0, 32)}:1`;
}

/** The origin of a URL as a base URI (ending in "/"), and the path below it. */
function splitUrl(raw: string): { base: string; path: string } {
  try {
    const url = new URL(raw);
    const path = url.pathname.replace(/^\//, '');
    return { base: `${url.protocol}//${url.host}/`, path: path === '' ? './' : path };
  } catch {
    return { base: 'urn:onbekend/', path: encodeURIComponent(raw) };
  }
}

const message = (finding: SarifFinding) =>
  finding.actual_value
    ? `${finding.title}. Gevonden: ${finding.actual_value}. Verwacht: ${finding.expected_value}.`
    : `${finding.title}. ${finding.description}`;

export interface SarifLog {
  $schema: string;
  version: '2.1.0';
  runs: Array<Record<string, unknown>>;
}

export function toSarif(scan: SarifScan, tool: SarifTool): SarifLog {
  const types = [...new Set(scan.findings.map((f) => f.finding_type))];
  const firstOf = (type: string) => scan.findings.find((f) => f.finding_type === type)!;
  const bases = new Map<string, string>([[splitUrl(scan.url).base, 'SITE']]);
  const baseIdOf = (base: string) => {
    if (!bases.has(base)) bases.set(base, `ORIGIN${bases.size}`);
    return bases.get(base)!;
  };
  const results = scan.findings.map((finding) => {
    const { base, path } = splitUrl(finding.endpoint);
    return {
      ruleId: finding.finding_type,
      ruleIndex: types.indexOf(finding.finding_type),
      level: LEVEL[finding.severity],
      message: { text: message(finding) },
      locations: [
        {
          physicalLocation: { artifactLocation: { uri: path, uriBaseId: baseIdOf(base) }, region: { startLine: 1 } },
          logicalLocations: [{ fullyQualifiedName: finding.endpoint, kind: 'resource' }],
        },
      ],
      partialFingerprints: { primaryLocationLineHash: fingerprint(finding.finding_type, finding.endpoint) },
      ...(finding.baselineState ? { baselineState: finding.baselineState } : {}),
      properties: {
        severity: finding.severity,
        category: finding.category,
        'security-severity': SECURITY_SEVERITY[finding.severity],
      },
    };
  });
  const rules = types.map((type) => {
    const finding = firstOf(type);
    return {
      id: type,
      // A readable name beside the id (SARIF1001 warns when they are equal).
      name: type
        .split('_')
        .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
        .join(''),
      shortDescription: { text: finding.title },
      fullDescription: { text: `${finding.description} ${finding.impact}` },
      help: {
        text: finding.remediation,
        markdown: `**Oplossing:** ${finding.remediation}\n\n**Verwacht:** ${finding.expected_value}\n\n[Meer informatie](${finding.reference_url})`,
      },
      helpUri: finding.reference_url,
      defaultConfiguration: { level: LEVEL[finding.severity] },
      properties: {
        tags: ['security', finding.category],
        precision: 'high',
        'security-severity': SECURITY_SEVERITY[finding.severity],
      },
    };
  });
  const host = splitUrl(scan.url).base.replace(/^[a-z]+:\/\//, '');
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: tool.name,
            version: tool.version,
            semanticVersion: tool.version,
            informationUri: tool.informationUri,
            rules,
          },
        },
        // One analysis per site: uploads for different sites do not close each other's alerts.
        automationDetails: { id: `${tool.name}/${host}` },
        originalUriBaseIds: Object.fromEntries([...bases].map(([base, id]) => [id, { uri: base }])),
        invocations: [
          {
            // A scan that reached no page did not run; one that ran with gaps did, and says where.
            executionSuccessful: scan.unreachable === null,
            endTimeUtc: scan.scanned_at,
            toolExecutionNotifications: [
              ...(scan.passive
                ? [
                    {
                      level: 'warning' as const,
                      message: {
                        text: 'Passieve scan: het eigendom van de site is niet aangetoond, dus de ingrijpende tests zijn overgeslagen en hun bevindingen niet opnieuw gecontroleerd.',
                      },
                      descriptor: { id: 'passive_scan' },
                    },
                  ]
                : []),
              ...scan.coverage.flatMap((entry) => {
                const notified = NOTIFIED[entry.status];
                if (!notified) return [];
                return [
                  {
                    level: notified.level,
                    message: {
                      text: `Test ${entry.test} op ${entry.subject}: ${notified.said}${entry.reason ? ` (${entry.reason})` : ''}.`,
                    },
                    descriptor: { id: entry.test },
                    locations: [{ logicalLocations: [{ fullyQualifiedName: entry.subject, kind: 'resource' }] }],
                    properties: { status: entry.status },
                  },
                ];
              }),
            ],
          },
        ],
        results,
        properties: { url: scan.url, score: scan.score, grade: scan.grade, passive: scan.passive },
      },
    ],
  };
}
