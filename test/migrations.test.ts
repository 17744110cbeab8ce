import { Migrator, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, MIGRATION_PROVIDER, openDatabase } from '../db/database.ts';
import { listFindings } from '../db/findings.ts';
import { freshDatabase, type TestDatabase } from './support/database.ts';

const databases: TestDatabase[] = [];
afterAll(() => Promise.all(databases.map((d) => d.drop())));
const fresh = async (name: string) => {
  const database = await freshDatabase(name);
  databases.push(database);
  return openDatabase(database.location);
};

describe('migrations', () => {
  it('moves existing findings to shared texts and counts them when upgrading to 0004', async () => {
    const db = await fresh('old');
    try {
      await new Migrator({ db, provider: MIGRATION_PROVIDER }).migrateTo('0003_usage_counters');
      const now = new Date().toISOString();
      const plan = await db.selectFrom('plans').select('id').where('tier', '=', 'pro').executeTakeFirstOrThrow();
      await sql`INSERT INTO tenants VALUES ('t1', 'T', ${plan.id}, NULL, ${now})`.execute(db);
      await sql`INSERT INTO sites VALUES ('s1', 't1', 'S', 'https://s.nl/', NULL, ${now})`.execute(db);
      await sql`INSERT INTO scans VALUES ('c1', 't1', 's1', 'https://s.nl/', 50, 'matig', 50, 50, 50, NULL, 2, 0, 1, 1, 0, ${now})`.execute(
        db,
      );
      for (const [id, type, severity, rank] of [
        ['f1', 'hsts_missing', 'MEDIUM', 2],
        ['f2', 'exposed_git_head', 'HIGH', 1],
      ] as const) {
        await sql`INSERT INTO findings (id, tenant_id, site_id, scan_id, finding_type, category, severity, severity_rank, status, title, description, impact, remediation, endpoint, actual_value, expected_value, reference_url, created_at, last_seen_at, resolved_at)
          VALUES (${id}, 't1', 's1', 'c1', ${type}, 'SSL_TLS', ${severity}, ${rank}, 'OPEN', ${`Titel ${type}`}, 'Beschrijving', 'Impact', 'Herstel', 'https://s.nl/', NULL, 'x', 'https://developer.mozilla.org/', ${now}, ${now}, NULL)`.execute(
          db,
        );
      }
      await migrate(db);
      const { rows, summary, total } = await listFindings(db, 't1', { search: 'titel hsts' }, { limit: 10, offset: 0 });
      expect(total).toBe(1);
      expect(summary).toEqual({ critical: 0, high: 0, medium: 1, low: 0 });
      expect(rows[0]).toMatchObject({
        id: 'f1',
        title: 'Titel hsts_missing',
        description: 'Beschrijving',
        remediation: 'Herstel',
      });
      expect((await listFindings(db, 't1', {}, { limit: 10, offset: 0 })).rows.map((r) => r.id)).toEqual(['f2', 'f1']);
    } finally {
      await db.destroy();
    }
  });

  it('keeps every suggestion, with its key as submitter, when upgrading to 0008', async () => {
    const db = await fresh('suggestions');
    try {
      await new Migrator({ db, provider: MIGRATION_PROVIDER }).migrateTo('0007_scan_failed_checks');
      const now = new Date().toISOString();
      const plan = await db.selectFrom('plans').select('id').where('tier', '=', 'pro').executeTakeFirstOrThrow();
      await sql`INSERT INTO tenants VALUES ('t1', 'T', ${plan.id}, NULL, ${now})`.execute(db);
      await sql`INSERT INTO users VALUES ('u1', 't1', 'a@b.nl', NULL, ${now})`.execute(db);
      await sql`INSERT INTO api_keys VALUES ('k1', 't1', 'u1', 'agent', 'hash', 'sak_x', '[]', 100, ${now}, NULL, NULL)`.execute(
        db,
      );
      await sql`INSERT INTO suggestions VALUES ('g1', 't1', 'k1', 'code_fix', 'Titel', 'Beschrijving', '--- a', 'a.conf', '{"a":1}', 'approved', 'Goed', ${now}, ${now})`.execute(
        db,
      );
      await migrate(db);
      const row = await db.selectFrom('suggestions').selectAll().executeTakeFirstOrThrow();
      expect(row).toEqual({
        id: 'g1',
        tenant_id: 't1',
        submitted_by_kind: 'api_key',
        submitted_by_id: 'k1',
        type: 'code_fix',
        title: 'Titel',
        description: 'Beschrijving',
        diff: '--- a',
        file_path: 'a.conf',
        metadata: '{"a":1}',
        status: 'approved',
        review_notes: 'Goed',
        reviewed_at: now,
        created_at: now,
      });
    } finally {
      await db.destroy();
    }
  });
});
