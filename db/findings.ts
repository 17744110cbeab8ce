import { sql, type ExpressionBuilder } from 'kysely';
import type { DB } from './database.ts';
import type { Database } from './schema.ts';

export interface FindingFilters {
  severity?: string;
  category?: string;
  status?: string;
  siteId?: string;
  search?: string;
}

const FINDING_COLUMNS = [
  'findings.id',
  'findings.scan_id',
  'findings.site_id',
  'sites.name as site_name',
  'sites.url as site_url',
  'findings.finding_type',
  'findings.category',
  'findings.severity',
  'findings.status',
  'findings.title',
  'findings.description',
  'findings.impact',
  'findings.remediation',
  'findings.endpoint',
  'findings.actual_value',
  'findings.expected_value',
  'findings.reference_url',
  'findings.created_at',
] as const;

/** A LIKE pattern matching the text anywhere, with the user's wildcards taken literally. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function filtered(db: DB, tenantId: string, filters: FindingFilters) {
  let query = db.selectFrom('findings').where('findings.tenant_id', '=', tenantId);
  if (filters.severity) query = query.where('findings.severity', '=', filters.severity);
  if (filters.category) query = query.where('findings.category', '=', filters.category);
  if (filters.status) query = query.where('findings.status', '=', filters.status);
  if (filters.siteId) query = query.where('findings.site_id', '=', filters.siteId);
  if (filters.search) {
    const pattern = containsPattern(filters.search);
    query = query.where((eb: ExpressionBuilder<Database, 'findings'>) =>
      eb.or([
        sql<boolean>`lower(${eb.ref('findings.title')}) like ${pattern} escape '\\'`,
        sql<boolean>`lower(${eb.ref('findings.description')}) like ${pattern} escape '\\'`,
      ]),
    );
  }
  return query;
}

export async function listFindings(db: DB, tenantId: string, filters: FindingFilters, page: { limit: number; offset: number }) {
  const [rows, counts] = await Promise.all([
    filtered(db, tenantId, filters)
      .innerJoin('sites', 'sites.id', 'findings.site_id')
      .select(FINDING_COLUMNS)
      .orderBy('findings.severity_rank', 'asc')
      .orderBy('findings.created_at', 'desc')
      .orderBy('findings.id', 'asc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    filtered(db, tenantId, filters)
      .select(['findings.severity', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('findings.severity')
      .execute(),
  ]);
  const summary = { critical: 0, high: 0, medium: 0, low: 0 };
  for (const { severity, n } of counts) summary[severity.toLowerCase() as keyof typeof summary] = Number(n);
  return { rows, summary, total: summary.critical + summary.high + summary.medium + summary.low };
}

/** The findings one scan observed, with the value that scan saw. */
export async function findingsOfScan(db: DB, tenantId: string, scanId: string) {
  return db
    .selectFrom('scan_findings')
    .innerJoin('findings', 'findings.id', 'scan_findings.finding_id')
    .innerJoin('sites', 'sites.id', 'findings.site_id')
    .select([...FINDING_COLUMNS.filter((c) => c !== 'findings.scan_id' && c !== 'findings.actual_value'), 'scan_findings.scan_id', 'scan_findings.actual_value'])
    .where('scan_findings.scan_id', '=', scanId)
    .where('findings.tenant_id', '=', tenantId)
    .orderBy('findings.severity_rank', 'asc')
    .orderBy('findings.finding_type', 'asc')
    .execute();
}

export async function findFinding(db: DB, id: string) {
  return db.selectFrom('findings').innerJoin('sites', 'sites.id', 'findings.site_id').select([...FINDING_COLUMNS, 'findings.tenant_id']).where('findings.id', '=', id).executeTakeFirst();
}

export async function setFindingStatus(db: DB, id: string, status: string): Promise<void> {
  await db
    .updateTable('findings')
    .set({ status, resolved_at: status === 'RESOLVED' ? new Date().toISOString() : null })
    .where('id', '=', id)
    .execute();
}
