import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

// PostgreSQL only: the count tables (finding_counts, scan_counts) were kept by row-level PL/pgSQL
// triggers, one function call and two or four upserts per row, which made a batch of 1,000 findings
// cost 2,000 upserts. Statement-level triggers read the statement's transition tables and add each
// group's net change once. SQLite's row triggers are cheap (no function calls) and stay.

interface CountTable {
  /** The table being counted and the counts table. */
  source: string;
  counts: string;
  keys: string[];
  /** Each variant lists one expression per key, over the changed row. */
  variants: string[][];
  /** The row triggers and functions this migration replaces. */
  rowTrigger: string;
}

const FINDING_COUNTS: CountTable = {
  source: 'findings',
  counts: 'finding_counts',
  keys: ['tenant_id', 'site_id', 'text_id', 'category', 'status', 'severity'],
  variants: [
    ['tenant_id', "''", 'text_id', 'category', 'status', 'severity'],
    ['tenant_id', 'site_id', 'text_id', 'category', 'status', 'severity'],
  ],
  rowTrigger: 'finding_counts_change',
};

const DAY = 'substr(scanned_at, 1, 10)';
const SCAN_COUNTS: CountTable = {
  source: 'scans',
  counts: 'scan_counts',
  keys: ['tenant_id', 'site_id', 'grade', 'day'],
  variants: [
    ['tenant_id', "''", "''", DAY],
    ['tenant_id', "''", 'grade', DAY],
    ['tenant_id', 'site_id', "''", DAY],
    ['tenant_id', 'site_id', 'grade', DAY],
  ],
  rowTrigger: 'scan_counts_change',
};

const OPERATIONS = [
  { op: 'INSERT', referencing: 'NEW TABLE AS new_rows', sources: [['new_rows', 1]] },
  { op: 'DELETE', referencing: 'OLD TABLE AS old_rows', sources: [['old_rows', -1]] },
  {
    op: 'UPDATE',
    referencing: 'OLD TABLE AS old_rows NEW TABLE AS new_rows',
    sources: [
      ['old_rows', -1],
      ['new_rows', 1],
    ],
  },
] as const;

/**
 * One upsert of the net change per group; groups whose changes cancel out are left alone. Groups are
 * written in key order, so concurrent statements lock count rows in the same order: no deadlocks.
 */
function netChange(table: CountTable, sources: readonly (readonly [string, number])[]): string {
  const keys = table.keys.join(', ');
  const rows = sources
    .flatMap(([rows, sign]) => table.variants.map((exprs) => `SELECT ${exprs.join(', ')}, ${sign} FROM ${rows}`))
    .join(' UNION ALL ');
  return `INSERT INTO ${table.counts} (${keys}, n)
    SELECT ${keys}, sum(d) FROM (${rows}) AS changed (${keys}, d) GROUP BY ${keys} HAVING sum(d) <> 0 ORDER BY ${keys}
    ON CONFLICT (${keys}) DO UPDATE SET n = ${table.counts}.n + excluded.n`;
}

async function replaceTriggers(db: Kysely<any>, table: CountTable): Promise<void> {
  await sql.raw(`DROP TRIGGER ${table.rowTrigger} ON ${table.source}`).execute(db);
  await sql.raw(`DROP FUNCTION ${table.rowTrigger}()`).execute(db);
  for (const { op, referencing, sources } of OPERATIONS) {
    const name = `${table.counts}_${op.toLowerCase()}`;
    await sql
      .raw(
        `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${netChange(table, sources)}; RETURN NULL; END $$`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER ${name} AFTER ${op} ON ${table.source} REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION ${name}()`,
      )
      .execute(db);
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await replaceTriggers(db, FINDING_COUNTS);
  await replaceTriggers(db, SCAN_COUNTS);
}
