import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

// Findings at millions of rows:
// - the catalog texts of a finding move to finding_texts (one row per distinct text set), so a
//   finding row stays small and text search runs over distinct texts only;
// - finding_texts_fts (FTS5, trigram tokenizer: substring and case-insensitive matching) indexes
//   those texts, kept in sync by a trigger;
// - finding_counts keeps the number of findings per tenant (site_id '') and per site, by text,
//   category, status and severity, kept in sync by triggers, so `summary` and `total` never count rows;
// - indexes that serve the list order (severity, newest first) for each filter.

const TEXT_COLUMNS = ['title', 'description', 'impact', 'remediation', 'expected_value', 'reference_url'] as const;
const COUNT_KEYS = 'tenant_id, site_id, text_id, category, status, severity';

function countChange(row: 'new' | 'old', delta: 1 | -1): string {
  return ['', `${row}.site_id`]
    .map(
      (site) => `INSERT INTO finding_counts (${COUNT_KEYS}, n)
        VALUES (${row}.tenant_id, ${site || "''"}, ${row}.text_id, ${row}.category, ${row}.status, ${row}.severity, ${delta})
        ON CONFLICT (${COUNT_KEYS}) DO UPDATE SET n = finding_counts.n + (${delta});`,
    )
    .join('\n');
}

const UPDATED_COLUMNS = 'tenant_id, site_id, text_id, category, status, severity';

/** The count triggers: SQLite trigger bodies, or one PL/pgSQL function on PostgreSQL. */
async function createCountTriggers(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql
      .raw(
        `CREATE FUNCTION finding_counts_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP IN ('UPDATE', 'DELETE') THEN ${countChange('old', -1)} END IF;
          IF TG_OP IN ('INSERT', 'UPDATE') THEN ${countChange('new', 1)} END IF;
          RETURN NULL;
        END $$`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER finding_counts_change AFTER INSERT OR DELETE OR UPDATE OF ${UPDATED_COLUMNS} ON findings FOR EACH ROW EXECUTE FUNCTION finding_counts_change()`,
      )
      .execute(db);
    return;
  }
  await sql
    .raw(`CREATE TRIGGER finding_counts_insert AFTER INSERT ON findings BEGIN ${countChange('new', 1)} END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER finding_counts_delete AFTER DELETE ON findings BEGIN ${countChange('old', -1)} END`)
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER finding_counts_update AFTER UPDATE OF ${UPDATED_COLUMNS} ON findings BEGIN
        ${countChange('old', -1)}
        ${countChange('new', 1)}
      END`,
    )
    .execute(db);
}

/**
 * Substring search over titles and descriptions: FTS5 with the trigram tokenizer on SQLite, pg_trgm
 * GIN indexes on PostgreSQL (ILIKE uses them). db/findings.ts queries each its own way.
 */
async function createTextSearch(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    await sql`CREATE INDEX finding_texts_title_trgm ON finding_texts USING gin (title gin_trgm_ops)`.execute(db);
    await sql`CREATE INDEX finding_texts_description_trgm ON finding_texts USING gin (description gin_trgm_ops)`.execute(
      db,
    );
    return;
  }
  await sql`CREATE VIRTUAL TABLE finding_texts_fts USING fts5(title, description, content='finding_texts', content_rowid='id', tokenize='trigram')`.execute(
    db,
  );
  await sql`INSERT INTO finding_texts_fts (finding_texts_fts) VALUES ('rebuild')`.execute(db);
  await sql`CREATE TRIGGER finding_texts_fts_insert AFTER INSERT ON finding_texts BEGIN
    INSERT INTO finding_texts_fts (rowid, title, description) VALUES (new.id, new.title, new.description);
  END`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('finding_texts')
    .addColumn('id', 'integer', (c) =>
      isPostgres(db) ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey(),
    )
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('impact', 'text', (c) => c.notNull())
    .addColumn('remediation', 'text', (c) => c.notNull())
    .addColumn('expected_value', 'text', (c) => c.notNull())
    .addColumn('reference_url', 'text', (c) => c.notNull())
    .addUniqueConstraint('finding_texts_unique', [...TEXT_COLUMNS])
    .execute();
  await sql`INSERT INTO finding_texts (${sql.raw(TEXT_COLUMNS.join(', '))}) SELECT DISTINCT ${sql.raw(TEXT_COLUMNS.join(', '))} FROM findings`.execute(
    db,
  );
  await sql`ALTER TABLE findings ADD COLUMN text_id integer REFERENCES finding_texts(id)`.execute(db);
  await sql`UPDATE findings SET text_id = (SELECT t.id FROM finding_texts t WHERE ${sql.raw(TEXT_COLUMNS.map((c) => `t.${c} = findings.${c}`).join(' AND '))})`.execute(
    db,
  );
  await db.schema.dropIndex('findings_tenant_order').execute();
  for (const column of TEXT_COLUMNS) await sql`ALTER TABLE findings DROP COLUMN ${sql.raw(column)}`.execute(db);

  await createTextSearch(db);

  await db.schema
    .createTable('finding_counts')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('text_id', 'integer', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('finding_counts_pk', ['tenant_id', 'site_id', 'text_id', 'category', 'status', 'severity'])
    .execute();
  await sql`INSERT INTO finding_counts (${sql.raw(COUNT_KEYS)}, n)
    SELECT tenant_id, '', text_id, category, status, severity, count(*) FROM findings GROUP BY tenant_id, text_id, category, status, severity
    UNION ALL
    SELECT tenant_id, site_id, text_id, category, status, severity, count(*) FROM findings GROUP BY tenant_id, site_id, text_id, category, status, severity`.execute(
    db,
  );
  await createCountTriggers(db);

  // The list order is severity_rank, created_at DESC, id. The index stays narrow: skipping 100,000
  // entries for a deep page costs a third of what it costs on an index that also carries the filters.
  await sql`CREATE INDEX findings_order ON findings (tenant_id, severity_rank, created_at DESC, id)`.execute(db);
  await sql`CREATE INDEX findings_by_status ON findings (tenant_id, status, severity_rank, created_at DESC, id)`.execute(
    db,
  );
  await sql`CREATE INDEX findings_by_category ON findings (tenant_id, category, severity_rank, created_at DESC, id)`.execute(
    db,
  );
  await sql`CREATE INDEX findings_by_text ON findings (tenant_id, text_id, severity_rank, created_at DESC, id)`.execute(
    db,
  );
  await sql`CREATE INDEX findings_by_site ON findings (site_id, severity_rank, created_at DESC, id)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('0004_findings_at_scale cannot be undone; restore a backup instead');
}
