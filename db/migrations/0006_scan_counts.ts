import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

// Scans per tenant and UTC day, also per site and per grade ('' = all), kept by triggers, so the
// scan list's total sums a few hundred day rows instead of counting up to every scan of a tenant.
const KEYS = 'tenant_id, site_id, grade, day';

function countChange(row: 'new' | 'old', delta: 1 | -1): string {
  return [
    ["''", "''"],
    ["''", `${row}.grade`],
    [`${row}.site_id`, "''"],
    [`${row}.site_id`, `${row}.grade`],
  ]
    .map(
      ([
        site,
        grade,
      ]) => `INSERT INTO scan_counts (${KEYS}, n) VALUES (${row}.tenant_id, ${site}, ${grade}, substr(${row}.scanned_at, 1, 10), ${delta})
        ON CONFLICT (${KEYS}) DO UPDATE SET n = scan_counts.n + (${delta});`,
    )
    .join('\n');
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('scan_counts')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('grade', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('scan_counts_pk', ['tenant_id', 'site_id', 'grade', 'day'])
    .execute();
  await sql`INSERT INTO scan_counts (${sql.raw(KEYS)}, n)
    SELECT tenant_id, '', '', substr(scanned_at, 1, 10), count(*) FROM scans GROUP BY 1, 2, 3, 4
    UNION ALL SELECT tenant_id, '', grade, substr(scanned_at, 1, 10), count(*) FROM scans GROUP BY 1, 2, 3, 4
    UNION ALL SELECT tenant_id, site_id, '', substr(scanned_at, 1, 10), count(*) FROM scans GROUP BY 1, 2, 3, 4
    UNION ALL SELECT tenant_id, site_id, grade, substr(scanned_at, 1, 10), count(*) FROM scans GROUP BY 1, 2, 3, 4`.execute(
    db,
  );
  if (isPostgres(db)) {
    await sql
      .raw(
        `CREATE FUNCTION scan_counts_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP = 'DELETE' THEN ${countChange('old', -1)} ELSE ${countChange('new', 1)} END IF;
          RETURN NULL;
        END $$`,
      )
      .execute(db);
    await sql`CREATE TRIGGER scan_counts_change AFTER INSERT OR DELETE ON scans FOR EACH ROW EXECUTE FUNCTION scan_counts_change()`.execute(
      db,
    );
    return;
  }
  await sql
    .raw(`CREATE TRIGGER scan_counts_insert AFTER INSERT ON scans BEGIN ${countChange('new', 1)} END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER scan_counts_delete AFTER DELETE ON scans BEGIN ${countChange('old', -1)} END`)
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER scan_counts_insert`.execute(db);
  await sql`DROP TRIGGER scan_counts_delete`.execute(db);
  await db.schema.dropTable('scan_counts').execute();
}
