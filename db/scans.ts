import type { Selectable } from 'kysely';
import type { ScanResult } from '../scanner/index.ts';
import { SEVERITIES } from '../scanner/vocabulary.ts';
import type { DB } from './database.ts';
import { uuidv7 } from './ids.ts';
import type { FindingsTable, FindingTextsTable, ScansTable } from './schema.ts';

export type ScanRow = Selectable<ScansTable>;
export type FindingTexts = Omit<Selectable<FindingTextsTable>, 'id'>;
/** A finding row with its catalog texts. */
export type FindingRecord = Selectable<FindingsTable> & FindingTexts;

export interface RecordedScan {
  scan: ScanRow;
  /** Findings seen for the first time on the site, or seen again after being resolved. */
  opened: FindingRecord[];
  /** Findings this scan no longer saw on a host it covered. */
  resolved: FindingRecord[];
}

const identity = (type: string, endpoint: string) => `${type}\n${endpoint}`;
const hostOf = (url: string) => {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
};

/** The id of a set of catalog texts, stored once however many findings share it. */
async function textIdOf(trx: DB, texts: FindingTexts): Promise<number> {
  const existing = await trx
    .selectFrom('finding_texts')
    .select('id')
    .where('title', '=', texts.title)
    .where('description', '=', texts.description)
    .where('impact', '=', texts.impact)
    .where('remediation', '=', texts.remediation)
    .where('expected_value', '=', texts.expected_value)
    .where('reference_url', '=', texts.reference_url)
    .executeTakeFirst();
  if (existing) return existing.id;
  return (await trx.insertInto('finding_texts').values(texts).returning('id').executeTakeFirstOrThrow()).id;
}

/**
 * Stores a scan and updates the site's findings; call it inside a transaction. A finding is identified
 * by site + finding_type + endpoint; only findings on the host the scan covered can be resolved by it.
 */
export async function recordScan(trx: DB, tenantId: string, siteId: string, result: ScanResult): Promise<RecordedScan> {
  const count = (severity: string) => result.findings.filter((f) => f.severity === severity).length;
  const scan: ScanRow = {
    id: uuidv7(),
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

  const previous = await trx
    .selectFrom('findings')
    .innerJoin('finding_texts', 'finding_texts.id', 'findings.text_id')
    .selectAll('findings')
    .select(['finding_texts.title', 'finding_texts.description', 'finding_texts.impact', 'finding_texts.remediation', 'finding_texts.expected_value', 'finding_texts.reference_url'])
    .where('findings.site_id', '=', siteId)
    .execute();
  const existing = new Map(previous.map((f) => [identity(f.finding_type, f.endpoint), f]));
  const opened: FindingRecord[] = [];
  const seen = new Set<string>();
  for (const f of result.findings) {
    const key = identity(f.finding_type, f.endpoint);
    seen.add(key);
    const texts: FindingTexts = {
      title: f.title,
      description: f.description,
      impact: f.impact,
      remediation: f.remediation,
      expected_value: f.expected_value,
      reference_url: f.reference_url,
    };
    const observed = {
      scan_id: scan.id,
      category: f.category,
      severity: f.severity,
      severity_rank: SEVERITIES.indexOf(f.severity),
      text_id: await textIdOf(trx, texts),
      actual_value: f.actual_value,
      last_seen_at: scan.scanned_at,
    };
    const before = existing.get(key);
    let record: FindingRecord;
    if (!before) {
      const row = { id: uuidv7(), tenant_id: tenantId, site_id: siteId, finding_type: f.finding_type, endpoint: f.endpoint, status: 'OPEN', created_at: scan.scanned_at, resolved_at: null, ...observed };
      await trx.insertInto('findings').values(row).execute();
      record = { ...row, ...texts };
      opened.push(record);
    } else {
      const reopened = before.status === 'RESOLVED';
      const changes = { ...observed, status: reopened ? 'OPEN' : before.status, resolved_at: reopened ? null : before.resolved_at };
      await trx.updateTable('findings').set(changes).where('id', '=', before.id).execute();
      record = { ...before, ...changes, ...texts };
      if (reopened) opened.push(record);
    }
    await trx.insertInto('scan_findings').values({ scan_id: scan.id, finding_id: record.id, actual_value: f.actual_value }).execute();
  }

  const scannedHost = hostOf(result.url);
  const resolved: FindingRecord[] = [];
  for (const [key, before] of existing) {
    if (seen.has(key) || !['OPEN', 'IN_PROGRESS'].includes(before.status) || hostOf(before.endpoint) !== scannedHost) continue;
    const record = { ...before, status: 'RESOLVED', resolved_at: scan.scanned_at };
    await trx.updateTable('findings').set({ status: record.status, resolved_at: record.resolved_at }).where('id', '=', record.id).execute();
    resolved.push(record);
  }
  if (result.detected_platform) {
    await trx.updateTable('sites').set({ detected_platform: result.detected_platform }).where('id', '=', siteId).execute();
  }
  return { scan, opened, resolved };
}

export interface ScanFilters {
  siteId?: string;
  grade?: string;
  /** Strictly after. */
  since?: string;
  /** Strictly before. */
  until?: string;
  /** At or after (used internally for day boundaries). */
  sinceInclusive?: string;
}

function filteredScans(db: DB, tenantId: string, filters: ScanFilters) {
  let query = db.selectFrom('scans').where('scans.tenant_id', '=', tenantId);
  if (filters.siteId) query = query.where('scans.site_id', '=', filters.siteId);
  if (filters.grade) query = query.where('scans.grade', '=', filters.grade);
  if (filters.since) query = query.where('scans.scanned_at', '>', filters.since);
  if (filters.sinceInclusive) query = query.where('scans.scanned_at', '>=', filters.sinceInclusive);
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

const dayOf = (moment: string) => moment.slice(0, 10);
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();

/**
 * The number of scans matching the filters: whole days from the scan_counts roll-up, and only the
 * partial first and last day counted row by row.
 */
export async function countScans(db: DB, tenantId: string, filters: ScanFilters): Promise<number> {
  const exact = async (range: ScanFilters) =>
    Number((await filteredScans(db, tenantId, range).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const { since, until } = filters;
  if (since && until && since >= until) return 0;
  if (since && until && dayOf(since) === dayOf(until)) return exact(filters);
  let days = db
    .selectFrom('scan_counts')
    .select((eb) => eb.fn.sum<number>('n').as('n'))
    .where('tenant_id', '=', tenantId)
    .where('site_id', '=', filters.siteId ?? '')
    .where('grade', '=', filters.grade ?? '');
  if (since) days = days.where('day', '>', dayOf(since));
  if (until) days = days.where('day', '<', dayOf(until));
  let total = Number((await days.executeTakeFirstOrThrow()).n ?? 0);
  if (since) total += await exact({ ...filters, until: nextDay(dayOf(since)) });
  if (until) total += await exact({ ...filters, sinceInclusive: `${dayOf(until)}T00:00:00.000Z` });
  return total;
}

export async function listScans(db: DB, tenantId: string, filters: ScanFilters, page: { limit: number; offset: number }) {
  const total = await countScans(db, tenantId, filters);
  if (page.offset >= total) return { rows: [], total };
  // The page's ids come from an index alone; only those rows are read and joined.
  const pageIds = filteredScans(db, tenantId, filters).select('scans.id').orderBy('scans.scanned_at', 'desc').orderBy('scans.id', 'desc').limit(page.limit).offset(page.offset);
  const rows = await db
    .selectFrom(pageIds.as('page'))
    .innerJoin('scans', 'scans.id', 'page.id')
    .innerJoin('sites', 'sites.id', 'scans.site_id')
    .select(SCAN_LIST_COLUMNS)
    .orderBy('scans.scanned_at', 'desc')
    .orderBy('scans.id', 'desc')
    .execute();
  return { rows, total };
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
