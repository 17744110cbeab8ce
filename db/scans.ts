import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { ScanResult } from '../scanner/index.ts';
import { SEVERITIES } from '../scanner/vocabulary.ts';
import type { DB } from './database.ts';
import type { FindingsTable, ScansTable } from './schema.ts';

export type ScanRow = Selectable<ScansTable>;
export type FindingRow = Selectable<FindingsTable>;

export interface RecordedScan {
  scan: ScanRow;
  /** Findings seen for the first time on the site, or seen again after being resolved. */
  opened: FindingRow[];
  /** Findings this scan no longer saw on a host it covered. */
  resolved: FindingRow[];
}

const identity = (type: string, endpoint: string) => `${type}\n${endpoint}`;
const hostOf = (url: string) => {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
};

/**
 * Stores a scan and updates the site's findings; call it inside a transaction. A finding is identified
 * by site + finding_type + endpoint; only findings on the host the scan covered can be resolved by it.
 */
export async function recordScan(trx: DB, tenantId: string, siteId: string, result: ScanResult): Promise<RecordedScan> {
  const count = (severity: string) => result.findings.filter((f) => f.severity === severity).length;
  const scan: ScanRow = {
    id: randomUUID(),
    tenant_id: tenantId,
    site_id: siteId,
    url: result.url,
    score: result.score,
    grade: result.grade,
    ssl_score: result.ssl_score,
    headers_score: result.headers_score,
    endpoints_score: result.endpoints_score,
    detected_platform: result.detected_platform,
    findings_count: result.findings.length,
    critical_count: count('CRITICAL'),
    high_count: count('HIGH'),
    medium_count: count('MEDIUM'),
    low_count: count('LOW'),
    scanned_at: result.scanned_at,
  };
  await trx.insertInto('scans').values(scan).execute();

  const existing = new Map(
    (await trx.selectFrom('findings').selectAll().where('site_id', '=', siteId).execute()).map((f) => [identity(f.finding_type, f.endpoint), f]),
  );
  const opened: FindingRow[] = [];
  const seen = new Set<string>();
  for (const f of result.findings) {
    const key = identity(f.finding_type, f.endpoint);
    seen.add(key);
    const previous = existing.get(key);
    const texts = {
      scan_id: scan.id,
      category: f.category,
      severity: f.severity,
      severity_rank: SEVERITIES.indexOf(f.severity),
      title: f.title,
      description: f.description,
      impact: f.impact,
      remediation: f.remediation,
      actual_value: f.actual_value,
      expected_value: f.expected_value,
      reference_url: f.reference_url,
      last_seen_at: scan.scanned_at,
    };
    let row: FindingRow;
    if (!previous) {
      row = { id: randomUUID(), tenant_id: tenantId, site_id: siteId, finding_type: f.finding_type, endpoint: f.endpoint, status: 'OPEN', created_at: scan.scanned_at, resolved_at: null, ...texts };
      await trx.insertInto('findings').values(row).execute();
      opened.push(row);
    } else {
      const reopened = previous.status === 'RESOLVED';
      row = { ...previous, ...texts, status: reopened ? 'OPEN' : previous.status, resolved_at: reopened ? null : previous.resolved_at };
      await trx.updateTable('findings').set({ ...texts, status: row.status, resolved_at: row.resolved_at }).where('id', '=', row.id).execute();
      if (reopened) opened.push(row);
    }
    await trx.insertInto('scan_findings').values({ scan_id: scan.id, finding_id: row.id, actual_value: f.actual_value }).execute();
  }

  const scannedHost = hostOf(result.url);
  const resolved: FindingRow[] = [];
  for (const [key, previous] of existing) {
    if (seen.has(key) || !['OPEN', 'IN_PROGRESS'].includes(previous.status) || hostOf(previous.endpoint) !== scannedHost) continue;
    const row = { ...previous, status: 'RESOLVED', resolved_at: scan.scanned_at };
    await trx.updateTable('findings').set({ status: row.status, resolved_at: row.resolved_at }).where('id', '=', row.id).execute();
    resolved.push(row);
  }
  if (result.detected_platform) {
    await trx.updateTable('sites').set({ detected_platform: result.detected_platform }).where('id', '=', siteId).execute();
  }
  return { scan, opened, resolved };
}

export interface ScanFilters {
  siteId?: string;
  grade?: string;
  since?: string;
  until?: string;
}

function filteredScans(db: DB, tenantId: string, filters: ScanFilters) {
  let query = db.selectFrom('scans').where('scans.tenant_id', '=', tenantId);
  if (filters.siteId) query = query.where('scans.site_id', '=', filters.siteId);
  if (filters.grade) query = query.where('scans.grade', '=', filters.grade);
  if (filters.since) query = query.where('scans.scanned_at', '>', filters.since);
  if (filters.until) query = query.where('scans.scanned_at', '<', filters.until);
  return query;
}

const SCAN_LIST_COLUMNS = [
  'scans.id',
  'scans.site_id',
  'sites.name as site_name',
  'sites.url as site_url',
  'scans.url',
  'scans.score',
  'scans.grade',
  'scans.ssl_score',
  'scans.headers_score',
  'scans.endpoints_score',
  'scans.detected_platform',
  'scans.findings_count',
  'scans.critical_count',
  'scans.high_count',
  'scans.medium_count',
  'scans.low_count',
  'scans.scanned_at',
] as const;

export async function listScans(db: DB, tenantId: string, filters: ScanFilters, page: { limit: number; offset: number }) {
  const [rows, total] = await Promise.all([
    filteredScans(db, tenantId, filters)
      .innerJoin('sites', 'sites.id', 'scans.site_id')
      .select(SCAN_LIST_COLUMNS)
      .orderBy('scans.scanned_at', 'desc')
      .orderBy('scans.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    filteredScans(db, tenantId, filters).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export async function findScan(db: DB, tenantId: string, scanId: string) {
  return db
    .selectFrom('scans')
    .innerJoin('sites', 'sites.id', 'scans.site_id')
    .select(SCAN_LIST_COLUMNS)
    .where('scans.tenant_id', '=', tenantId)
    .where('scans.id', '=', scanId)
    .executeTakeFirst();
}
