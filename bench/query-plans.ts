import { CompiledQuery } from 'kysely';
import { openDatabase } from '../db/database.ts';
import { listFindings, type FindingFilters } from '../db/findings.ts';
import { listScans, type ScanFilters } from '../db/scans.ts';

/** The SQLite query plans of the list queries, captured from the real code paths. */
export async function queryPlans(dbPath: string, tenantId: string, siteId: string): Promise<string> {
  const captured: CompiledQuery[] = [];
  const db = openDatabase(dbPath, {
    log: (event) => {
      if (event.level === 'query') captured.push(event.query);
    },
  });
  const out: string[] = [];
  const explain = async (label: string, run: () => Promise<unknown>) => {
    captured.length = 0;
    await run();
    out.push(`-- ${label}`);
    for (const query of [...captured]) {
      const { rows } = await db.executeQuery(
        CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]) as CompiledQuery<{
          detail: string;
        }>,
      );
      out.push(query.sql.replace(/\s+/g, ' ').slice(0, 160), ...rows.map((r) => `   ${r.detail}`));
    }
  };
  const findings =
    (filters: FindingFilters, offset = 0) =>
    () =>
      listFindings(db, tenantId, filters, { limit: 50, offset });
  const scans =
    (filters: ScanFilters, offset = 0) =>
    () =>
      listScans(db, tenantId, filters, { limit: 20, offset });
  await explain('GET /findings (no filter)', findings({}));
  await explain('GET /findings?status=OPEN&category=SSL_TLS', findings({ status: 'OPEN', category: 'SSL_TLS' }));
  await explain('GET /findings?site_id=…', findings({ siteId }));
  await explain('GET /findings?search=heapdump', findings({ search: 'heapdump' }));
  await explain('GET /findings?offset=100000', findings({}, 100_000));
  await explain(
    'GET /scans?grade=goed&since=…&until=…',
    scans({ grade: 'goed', since: '2026-02-05T10:00:00.000Z', until: '2026-02-25T10:00:00.000Z' }),
  );
  await db.destroy();
  return out.join('\n');
}
