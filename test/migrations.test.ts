import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, MIGRATION_PROVIDER, openDatabase } from '../db/database.ts';
import { listFindings } from '../db/findings.ts';

const dir = mkdtempSync(join(tmpdir(), 'scanner-migrations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('migrations', () => {
  it('moves existing findings to shared texts and counts them when upgrading to 0004', async () => {
    const db = openDatabase(join(dir, 'old.db'));
    try {
      await new Migrator({ db, provider: MIGRATION_PROVIDER }).migrateTo('0003_usage_counters');
      const now = new Date().toISOString();
      const plan = await db.selectFrom('plans').select('id').where('tier', '=', 'pro').executeTakeFirstOrThrow();
      await sql`INSERT INTO tenants VALUES ('t1', 'T', ${plan.id}, NULL, ${now})`.execute(db);
      await sql`INSERT INTO sites VALUES ('s1', 't1', 'S', 'https://s.nl/', NULL, ${now})`.execute(db);
      await sql`INSERT INTO scans VALUES ('c1', 't1', 's1', 'https://s.nl/', 50, 'matig', 50, 50, 50, NULL, 2, 0, 1, 1, 0, ${now})`.execute(db);
      for (const [id, type, severity, rank] of [['f1', 'hsts_missing', 'MEDIUM', 2], ['f2', 'exposed_git_head', 'HIGH', 1]] as const) {
        await sql`INSERT INTO findings (id, tenant_id, site_id, scan_id, finding_type, category, severity, severity_rank, status, title, description, impact, remediation, endpoint, actual_value, expected_value, reference_url, created_at, last_seen_at, resolved_at)
          VALUES (${id}, 't1', 's1', 'c1', ${type}, 'SSL_TLS', ${severity}, ${rank}, 'OPEN', ${`Titel ${type}`}, 'Beschrijving', 'Impact', 'Herstel', 'https://s.nl/', NULL, 'x', 'https://developer.mozilla.org/', ${now}, ${now}, NULL)`.execute(db);
      }
      await migrate(db);
      const { rows, summary, total } = await listFindings(db, 't1', { search: 'titel hsts' }, { limit: 10, offset: 0 });
      expect(total).toBe(1);
      expect(summary).toEqual({ critical: 0, high: 0, medium: 1, low: 0 });
      expect(rows[0]).toMatchObject({ id: 'f1', title: 'Titel hsts_missing', description: 'Beschrijving', remediation: 'Herstel' });
      expect((await listFindings(db, 't1', {}, { limit: 10, offset: 0 })).rows.map((r) => r.id)).toEqual(['f2', 'f1']);
    } finally {
      await db.destroy();
    }
  });
});
