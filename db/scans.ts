import type { Selectable } from 'kysely';
import { changeRowsOf, planFindings, statusChangesOf, type ScanPlan } from '../domain/finding-lifecycle.ts';
import {
  changeCounts,
  type ChangeCounts,
  SEVERITIES,
  severityCounts,
  type FindingStatus,
  type Grade,
  type ScanChangeKind,
  type ScanTrigger,
  type Severity,
} from '../domain/vocabulary.ts';
import { recheckedBy, type ScanFinding, type ScanResult } from '../scanner/index.ts';
import { computeScores } from '../scanner/report/scoring.ts';
import { problemKey } from '../scanner/crawl/page-findings.ts';
import type { DB } from './database.ts';
import { preparedQuery } from './prepared-query.ts';
import { uuidv7 } from './ids.ts';
import type { FindingsTable, FindingTextsTable, ScansTable } from './schema.ts';

export type ScanRow = Selectable<ScansTable>;
export type FindingTexts = Omit<Selectable<FindingTextsTable>, 'id'>;
/** A finding row with its catalog texts. */
export type FindingRecord = Selectable<FindingsTable> & FindingTexts;

/** What happened to one finding, for its webhook's `data.change`. */
export interface FindingChange {
  kind: Exclude<ScanChangeKind, 'unverified'>;
  previous_status: FindingStatus | null;
  previous_severity: Severity | null;
}
export type ChangedFinding = FindingRecord & { change: FindingChange };

export interface RecordedScan {
  scan: ScanRow;
  /** Findings seen for the first time on the site, or seen again after being resolved. */
  opened: ChangedFinding[];
  /** Findings this scan re-checked and no longer saw, or saw replaced by a further stage. */
  resolved: ChangedFinding[];
  /** Findings seen again with another severity. */
  severityChanged: ChangedFinding[];
  /** How many findings each kind of change touched (scan_completed's `changes`). */
  changeCounts: ChangeCounts;
}

const TEXT_FIELDS = ['title', 'description', 'impact', 'remediation', 'expected_value', 'reference_url'] as const;
const textKey = (t: FindingTexts) => TEXT_FIELDS.map((field) => t[field]).join('\u0000');
const textsOf = (f: ScanFinding): FindingTexts => ({
  title: f.title,
  description: f.description,
  impact: f.impact,
  remediation: f.remediation,
  expected_value: f.expected_value,
  reference_url: f.reference_url,
});

/** Ids of sets of catalog texts, each stored once however many findings share it. */
async function textIdsOf(trx: DB, wanted: FindingTexts[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  const titles = [...new Set(wanted.map((t) => t.title))];
  if (titles.length === 0) return ids;
  for (const row of await trx.selectFrom('finding_texts').selectAll().where('title', 'in', titles).execute())
    ids.set(textKey(row), row.id);
  for (const texts of wanted) {
    const key = textKey(texts);
    if (!ids.has(key))
      ids.set(key, (await trx.insertInto('finding_texts').values(texts).returning('id').executeTakeFirstOrThrow()).id);
  }
  return ids;
}

const CHUNK = 100;

async function inChunks<T>(rows: T[], write: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await write(rows.slice(i, i + CHUNK));
}

type SiteFinding = FindingRecord;

/** The pages a per-page finding occurs on, as stored; null for what is judged once. */
const affectedOf = (f: ScanFinding) => (f.affected_urls ? JSON.stringify(f.affected_urls) : null);

type Plan = ScanPlan<SiteFinding, ScanFinding>;

/** The site's findings with their texts: what a scan's plan is made against. */
function siteFindings(trx: DB, siteId: string) {
  return trx
    .selectFrom('findings')
    .innerJoin('finding_texts', 'finding_texts.id', 'findings.text_id')
    .selectAll('findings')
    .select(TEXT_FIELDS.map((field) => `finding_texts.${field}` as const))
    .where('findings.site_id', '=', siteId)
    .execute();
}

/** Whether the site has been scanned before (a stored scan of it exists). */
export async function siteHasScans(db: DB, tenantId: string, siteId: string): Promise<boolean> {
  return (await latestScanId(db, tenantId, siteId)) !== undefined;
}

export function latestScanId(trx: DB, tenantId: string, siteId: string) {
  return trx
    .selectFrom('scans')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('site_id', '=', siteId)
    .orderBy('scanned_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Stores a scan and applies the plan domain/finding-lifecycle.ts makes for the site's findings;
 * call it inside a transaction. Writes are batched: a rescan that sees the same issues costs a
 * handful of statements.
 */
export async function recordScan(
  trx: DB,
  tenantId: string,
  siteId: string,
  result: ScanResult,
  trigger: ScanTrigger,
): Promise<RecordedScan> {
  // Scans of one site are recorded one at a time: this write holds the site's row (PostgreSQL) until
  // the transaction ends, so a scan finishing beside another plans against what that one stored.
  await trx
    .updateTable('sites')
    .set((eb) => ({ name: eb.ref('name') }))
    .where('id', '=', siteId)
    .execute();
  const before = await latestScanId(trx, tenantId, siteId);
  const previous = await siteFindings(trx, siteId);
  const plan: Plan = planFindings(
    previous,
    result.findings,
    recheckedBy(result.coverage, result.examined),
    uuidv7,
    problemKey,
  );
  const counts = severityCounts(result.findings.map((f) => [f.severity, 1] as const));
  const scan: ScanRow = {
    id: uuidv7(),
    tenant_id: tenantId,
    site_id: siteId,
    url: result.url,
    // The open findings this scan could not re-check still count: a partial scan is no all-clear.
    ...computeScores([...result.findings, ...plan.unverified]),
    detected_platform: result.detected_platform,
    findings_count: result.findings.length,
    critical_count: counts.critical,
    high_count: counts.high,
    medium_count: counts.medium,
    low_count: counts.low,
    scanned_at: result.scanned_at,
    failed_checks: JSON.stringify(result.failed_checks),
    detected_server: result.detected_server,
    trigger,
    previous_scan_id: before?.id ?? null,
    internetnl: result.internetnl ? JSON.stringify(result.internetnl) : null,
    mail: result.mail ? JSON.stringify(result.mail) : null,
    coverage: JSON.stringify(result.coverage),
    unreachable: result.unreachable,
    passive: result.passive ? 1 : 0,
    crawl: JSON.stringify(result.crawl),
    pages: JSON.stringify(result.pages),
  };
  await trx.insertInto('scans').values(scan).execute();
  const changed = await applyPlan(trx, scan, plan, await textIdsOf(trx, result.findings.map(textsOf)));
  const changeRows = changeRowsOf(plan).map((row) => ({ ...row, scan_id: scan.id }));
  await inChunks(changeRows, (rows) => trx.insertInto('scan_changes').values(rows).execute());
  const history = statusChangesOf(plan).map((entry) => ({
    id: uuidv7(),
    tenant_id: tenantId,
    ...entry,
    actor_kind: 'system' as const,
    actor_id: 'scan',
    actor_label: 'scan',
    changed_at: scan.scanned_at,
    scan_id: scan.id,
  }));
  await inChunks(history, (rows) => trx.insertInto('finding_status_changes').values(rows).execute());
  await inChunks(
    result.expiries.map((expiry) => ({ scan_id: scan.id, tenant_id: tenantId, site_id: siteId, ...expiry })),
    (rows) => trx.insertInto('scan_expiries').values(rows).execute(),
  );
  if (result.detected_platform)
    await trx
      .updateTable('sites')
      .set({ detected_platform: result.detected_platform })
      .where('id', '=', siteId)
      .execute();
  return { scan, ...changed, changeCounts: changeCounts(changeRows.map((row) => [row.kind, 1] as const)) };
}

/** Writes a plan's findings: new rows, what a rescan saw of known ones, reopenings and resolutions. */
async function applyPlan(trx: DB, scan: ScanRow, plan: Plan, textIds: Map<string, number>) {
  const observedFields = (f: ScanFinding) => ({
    category: f.category,
    severity: f.severity,
    severity_rank: SEVERITIES.indexOf(f.severity),
    text_id: textIds.get(textKey(textsOf(f)))!,
    actual_value: f.actual_value,
    // A page-level finding is one per site: its first page moves with the pages that show it.
    endpoint: f.endpoint,
    affected_urls: affectedOf(f),
  });
  const seenNow = { scan_id: scan.id, last_seen_at: scan.scanned_at };
  const inserted: Selectable<FindingsTable>[] = plan.open.map(({ id, observed }) => ({
    id,
    tenant_id: scan.tenant_id,
    site_id: scan.site_id,
    finding_type: observed.finding_type,
    status: 'OPEN',
    created_at: scan.scanned_at,
    resolved_at: null,
    ...seenNow,
    ...observedFields(observed),
  }));
  await inChunks(inserted, (rows) => trx.insertInto('findings').values(rows).execute());
  const opened: ChangedFinding[] = plan.open.map(({ observed }, i) => ({
    ...inserted[i]!,
    ...textsOf(observed),
    change: { kind: 'new', previous_status: null, previous_severity: null },
  }));
  for (const { previous, observed } of plan.keep) {
    const fields = observedFields(observed);
    if ((Object.keys(fields) as Array<keyof typeof fields>).some((field) => previous[field] !== fields[field]))
      await trx.updateTable('findings').set(fields).where('id', '=', previous.id).execute();
  }
  for (const { previous, observed } of plan.reopen) {
    const changes = { ...observedFields(observed), status: 'OPEN' as const, resolved_at: null };
    await trx.updateTable('findings').set(changes).where('id', '=', previous.id).execute();
    opened.push({
      ...previous,
      ...changes,
      ...textsOf(observed),
      ...seenNow,
      change: { kind: 'regressed', previous_status: previous.status, previous_severity: previous.severity },
    });
  }
  const stillSeen = [...plan.keep, ...plan.reopen];
  await inChunks(
    stillSeen.map(({ previous }) => previous.id),
    (ids) => trx.updateTable('findings').set(seenNow).where('id', 'in', ids).execute(),
  );
  const sighting = (finding_id: string, observed: ScanFinding) => ({
    finding_id,
    actual_value: observed.actual_value,
    severity: observed.severity,
    endpoint: observed.endpoint,
    affected_urls: affectedOf(observed),
    affected_count: observed.affected_count ?? null,
  });
  const sightings = [
    ...plan.open.map(({ id, observed }) => sighting(id, observed)),
    ...stillSeen.map(({ previous, observed }) => sighting(previous.id, observed)),
  ].map((row) => ({ ...row, scan_id: scan.id }));
  await inChunks(sightings, (rows) => trx.insertInto('scan_findings').values(rows).execute());
  const closed = (previous: SiteFinding, kind: 'resolved' | 'escalated'): ChangedFinding => ({
    ...previous,
    status: 'RESOLVED',
    resolved_at: scan.scanned_at,
    change: { kind, previous_status: previous.status, previous_severity: previous.severity },
  });
  const resolved = [
    ...plan.resolve.map((f) => closed(f, 'resolved')),
    ...plan.escalate.map(({ previous }) => closed(previous, 'escalated')),
  ];
  await inChunks(
    resolved.map((r) => r.id),
    (ids) =>
      trx
        .updateTable('findings')
        .set({ status: 'RESOLVED', resolved_at: scan.scanned_at })
        .where('id', 'in', ids)
        .execute(),
  );
  const severityChanged: ChangedFinding[] = plan.severityChanged.map(({ previous, observed }) => ({
    ...previous,
    ...observedFields(observed),
    ...textsOf(observed),
    ...seenNow,
    change: { kind: 'severity_changed', previous_status: previous.status, previous_severity: previous.severity },
  }));
  return { opened, resolved, severityChanged };
}

export interface ScanFilters {
  siteId?: string;
  grade?: Grade;
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
  'scans.trigger',
] as const;

/** One scan in full: the list's columns plus what only its detail shows. */
const SCAN_COLUMNS = [
  ...SCAN_LIST_COLUMNS,
  'scans.url',
  'scans.failed_checks',
  'scans.detected_server',
  'scans.previous_scan_id',
  'scans.internetnl',
  'scans.mail',
  'scans.coverage',
  'scans.unreachable',
  'scans.passive',
  'scans.crawl',
  'scans.pages',
] as const;

const dayOf = (moment: string) => moment.slice(0, 10);
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();

type TenantScans = ScanFilters & { tenantId: string };

const exactCount = preparedQuery((db, a: TenantScans) =>
  filteredScans(db, a.tenantId, a).select((eb) => eb.fn.countAll<number>().as('n')),
);

/** Whole days of the scan_counts roll-up; its rows for "any site" and "any grade" have ''. */
const wholeDays = preparedQuery(
  (db, a: { tenantId: string; siteKey: string; gradeKey: Grade | ''; afterDay?: string; beforeDay?: string }) => {
    let days = db
      .selectFrom('scan_counts')
      .select((eb) => eb.fn.sum<number>('n').as('n'))
      .where('tenant_id', '=', a.tenantId)
      .where('site_id', '=', a.siteKey)
      .where('grade', '=', a.gradeKey);
    if (a.afterDay) days = days.where('day', '>', a.afterDay);
    if (a.beforeDay) days = days.where('day', '<', a.beforeDay);
    return days;
  },
);

/** The page's ids come from an index alone; only those rows are read and joined. */
const scanPage = preparedQuery((db, a: TenantScans & { limit: number; offset: number }) => {
  const pageIds = filteredScans(db, a.tenantId, a)
    .select('scans.id')
    .orderBy('scans.scanned_at', 'desc')
    .orderBy('scans.id', 'desc')
    .limit(a.limit)
    .offset(a.offset);
  return db
    .selectFrom(pageIds.as('page'))
    .innerJoin('scans', 'scans.id', 'page.id')
    .innerJoin('sites', 'sites.id', 'scans.site_id')
    .select(SCAN_LIST_COLUMNS)
    .orderBy('scans.scanned_at', 'desc')
    .orderBy('scans.id', 'desc');
});

/**
 * The number of scans matching the filters: whole days from the scan_counts roll-up, and only the
 * partial first and last day counted row by row.
 */
export async function countScans(db: DB, tenantId: string, filters: ScanFilters): Promise<number> {
  const exact = async (range: ScanFilters) => Number((await exactCount(db, { tenantId, ...range }))[0]!.n);
  const { since, until } = filters;
  if (since && until && since >= until) return 0;
  if (since && until && dayOf(since) === dayOf(until)) return exact(filters);
  const [days] = await wholeDays(db, {
    tenantId,
    siteKey: filters.siteId ?? '',
    gradeKey: filters.grade ?? '',
    afterDay: since ? dayOf(since) : undefined,
    beforeDay: until ? dayOf(until) : undefined,
  });
  let total = Number(days?.n ?? 0);
  if (since) total += await exact({ ...filters, until: nextDay(dayOf(since)) });
  // Here the last day starts after `since`, so its start alone bounds the range (one bound per index range).
  if (until) total += await exact({ ...filters, since: undefined, sinceInclusive: `${dayOf(until)}T00:00:00.000Z` });
  return total;
}

export async function listScans(
  db: DB,
  tenantId: string,
  filters: ScanFilters,
  page: { limit: number; offset: number },
) {
  const total = await countScans(db, tenantId, filters);
  if (page.offset >= total) return { rows: [], total };
  return { rows: await scanPage(db, { tenantId, ...filters, limit: page.limit, offset: page.offset }), total };
}

export async function findScan(db: DB, tenantId: string, scanId: string) {
  return db
    .selectFrom('scans')
    .innerJoin('sites', 'sites.id', 'scans.site_id')
    .select(SCAN_COLUMNS)
    .where('scans.tenant_id', '=', tenantId)
    .where('scans.id', '=', scanId)
    .executeTakeFirst();
}
