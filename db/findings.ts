import { sql } from 'kysely';
import {
  SEVERITIES,
  SEVERITY_COUNT_KEYS,
  severityCounts,
  type Category,
  type FindingStatus,
  type Severity,
} from '../domain/vocabulary.ts';
import type { DB } from './database.ts';
import { isPostgres } from './dialect.ts';
import { preparedQuery } from './prepared-query.ts';
import { isPageLevel } from '../scanner/crawl/page-findings.ts';

export interface FindingFilters {
  severity?: Severity;
  category?: Category;
  status?: FindingStatus;
  siteId?: string;
  search?: string;
}

export const FINDING_COLUMNS = [
  'findings.id',
  'findings.scan_id',
  'findings.site_id',
  'sites.name as site_name',
  'sites.url as site_url',
  'findings.finding_type',
  'findings.category',
  'findings.severity',
  'findings.status',
  'finding_texts.title',
  'finding_texts.description',
  'finding_texts.impact',
  'finding_texts.remediation',
  'findings.endpoint',
  'findings.actual_value',
  'finding_texts.expected_value',
  'finding_texts.reference_url',
  'findings.created_at',
] as const;

/**
 * Ids of the distinct finding texts whose title or description contains the search text, ignoring
 * case. Three characters or more go through the FTS5 trigram index; shorter ones scan the (small)
 * table of distinct texts.
 */
export async function matchingTextIds(db: DB, search: string): Promise<number[]> {
  if (isPostgres(db)) {
    // pg_trgm's GIN indexes serve ILIKE; the pattern escapes LIKE's wildcards.
    const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = await db
      .selectFrom('finding_texts')
      .select('id')
      .where((eb) => eb.or([eb('title', 'ilike', pattern), eb('description', 'ilike', pattern)]))
      .execute();
    return rows.map((r) => r.id);
  }
  if (search.length >= 3) {
    const phrase = `"${search.replaceAll('"', '""')}"`;
    const { rows } = await sql<{
      id: number;
    }>`SELECT rowid AS id FROM finding_texts_fts WHERE finding_texts_fts MATCH ${phrase}`.execute(db);
    return rows.map((r) => r.id);
  }
  const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db
    .selectFrom('finding_texts')
    .select('id')
    .where((eb) =>
      eb.or([
        sql<boolean>`lower(${eb.ref('title')}) LIKE ${pattern} ESCAPE '\\'`,
        sql<boolean>`lower(${eb.ref('description')}) LIKE ${pattern} ESCAPE '\\'`,
      ]),
    )
    .execute();
  return rows.map((r) => r.id);
}

interface ResolvedFilters extends Omit<FindingFilters, 'search'> {
  textIds?: number[];
}

/** Counts per severity from the finding_counts roll-up: a few dozen rows, whatever the number of findings. */
const severityTotals = preparedQuery((db, a: ResolvedFilters & { tenantId: string; siteKey: string }) => {
  let query = db
    .selectFrom('finding_counts')
    .select(['severity', (eb) => eb.fn.sum<number>('n').as('n')])
    .where('tenant_id', '=', a.tenantId)
    .where('site_id', '=', a.siteKey);
  if (a.severity) query = query.where('severity', '=', a.severity);
  if (a.category) query = query.where('category', '=', a.category);
  if (a.status) query = query.where('status', '=', a.status);
  if (a.textIds) query = query.where('text_id', 'in', a.textIds);
  return query.groupBy('severity');
});

type PageArgs = Omit<ResolvedFilters, 'severity'> & {
  tenantId: string;
  severityRank?: number;
  fromRank?: number;
  limit: number;
  offset: number;
};

/**
 * One page in list order. Its ids are read from an index that covers the filters (no row lookups
 * for skipped rows); only those rows are joined.
 */
const findingPage = preparedQuery((db, a: PageArgs) => {
  let ids = db.selectFrom('findings').select('findings.id').where('findings.tenant_id', '=', a.tenantId);
  if (a.fromRank) ids = ids.where('findings.severity_rank', '>=', a.fromRank);
  if (a.siteId) ids = ids.where('findings.site_id', '=', a.siteId);
  if (a.severityRank !== undefined) ids = ids.where('findings.severity_rank', '=', a.severityRank);
  if (a.category) ids = ids.where('findings.category', '=', a.category);
  if (a.status) ids = ids.where('findings.status', '=', a.status);
  if (a.textIds) ids = ids.where('findings.text_id', 'in', a.textIds);
  const page = ids
    .orderBy('findings.severity_rank', 'asc')
    .orderBy('findings.created_at', 'desc')
    .orderBy('findings.id', 'asc')
    .limit(a.limit)
    .offset(a.offset);
  return db
    .selectFrom(page.as('page'))
    .innerJoin('findings', 'findings.id', 'page.id')
    .innerJoin('finding_texts', 'finding_texts.id', 'findings.text_id')
    .innerJoin('sites', 'sites.id', 'findings.site_id')
    .select(FINDING_COLUMNS)
    .orderBy('findings.severity_rank', 'asc')
    .orderBy('findings.created_at', 'desc')
    .orderBy('findings.id', 'asc');
});

export async function listFindings(
  db: DB,
  tenantId: string,
  filters: FindingFilters,
  page: { limit: number; offset: number },
) {
  const { search, ...rest } = filters;
  const resolved: ResolvedFilters = {
    ...rest,
    ...(search === undefined ? {} : { textIds: await matchingTextIds(db, search) }),
  };
  if (resolved.textIds?.length === 0) return { rows: [], summary: severityCounts([]), total: 0 };
  const totals = await severityTotals(db, { ...resolved, tenantId, siteKey: resolved.siteId ?? '' });
  const summary = severityCounts(totals.map(({ severity, n }) => [severity, Number(n)] as const));
  const perRank = SEVERITIES.map((severity) => summary[SEVERITY_COUNT_KEYS[severity]]);
  const total = perRank.reduce((sum, n) => sum + n, 0);
  if (page.offset >= total) return { rows: [], summary, total };
  // The list is ordered by severity first and the summary knows how many findings each severity has,
  // so a deep page starts its index walk at its own severity instead of stepping over the ones before.
  let fromRank = 0;
  let skipped = 0;
  while (fromRank < perRank.length - 1 && skipped + perRank[fromRank]! <= page.offset) skipped += perRank[fromRank++]!;
  const { severity, ...others } = resolved;
  const rows = await findingPage(db, {
    ...others,
    tenantId,
    severityRank: severity === undefined ? undefined : SEVERITIES.indexOf(severity),
    fromRank: fromRank > 0 ? fromRank : undefined,
    limit: page.limit,
    offset: page.offset - skipped,
  });
  return { rows, summary, total };
}

/** The findings one scan observed, with the value that scan saw. */
export async function findingsOfScan(db: DB, tenantId: string, scanId: string) {
  return (
    db
      .selectFrom('scan_findings')
      .innerJoin('findings', 'findings.id', 'scan_findings.finding_id')
      .innerJoin('finding_texts', 'finding_texts.id', 'findings.text_id')
      .innerJoin('sites', 'sites.id', 'findings.site_id')
      .select([
        ...FINDING_COLUMNS.filter(
          (c) => c !== 'findings.scan_id' && c !== 'findings.actual_value' && c !== 'findings.endpoint',
        ),
        'scan_findings.scan_id',
        'scan_findings.actual_value',
        'scan_findings.affected_urls',
        'scan_findings.affected_count',
      ])
      // Where this scan saw it: a page-level finding's first page may have moved since.
      .select((eb) => eb.fn.coalesce('scan_findings.endpoint', 'findings.endpoint').as('endpoint'))
      .where('scan_findings.scan_id', '=', scanId)
      .where('findings.tenant_id', '=', tenantId)
      .orderBy('findings.severity_rank', 'asc')
      .orderBy('findings.finding_type', 'asc')
      .execute()
  );
}

export async function findFinding(db: DB, id: string) {
  return db
    .selectFrom('findings')
    .innerJoin('finding_texts', 'finding_texts.id', 'findings.text_id')
    .innerJoin('sites', 'sites.id', 'findings.site_id')
    .select([...FINDING_COLUMNS, 'findings.tenant_id'])
    .where('findings.id', '=', id)
    .executeTakeFirst();
}

export async function setFindingStatus(db: DB, id: string, status: FindingStatus, at: string): Promise<void> {
  await db
    .updateTable('findings')
    .set({ status, resolved_at: status === 'RESOLVED' ? at : null })
    .where('id', '=', id)
    .execute();
}

/** The scans that saw a finding, newest first (the scans' own tenant is checked). */
export async function scansOfFinding(db: DB, tenantId: string, findingId: string, limit: number) {
  return db
    .selectFrom('scan_findings')
    .innerJoin('scans', 'scans.id', 'scan_findings.scan_id')
    .select(['scans.id', 'scans.scanned_at', 'scans.score', 'scans.grade'])
    .where('scan_findings.finding_id', '=', findingId)
    .where('scans.tenant_id', '=', tenantId)
    .orderBy('scans.scanned_at', 'desc')
    .limit(limit)
    .execute();
}

/**
 * The pages where a site's open page-level findings were last seen (their affected URLs, else their
 * endpoint), in the order the findings were found: a crawl visits them again to confirm a fix.
 */
export async function pagesOfOpenFindings(db: DB, tenantId: string, siteId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('findings')
    .select(['finding_type', 'endpoint', 'affected_urls'])
    .where('tenant_id', '=', tenantId)
    .where('site_id', '=', siteId)
    .where('status', 'in', ['OPEN', 'IN_PROGRESS'])
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
  const pages = rows
    .filter((row) => isPageLevel(row.finding_type))
    .flatMap((row) => (row.affected_urls ? (JSON.parse(row.affected_urls) as string[]) : [row.endpoint]));
  return [...new Set(pages)];
}
