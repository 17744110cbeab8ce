import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigratedDatabase, type DB } from '../db/database.ts';
import { listFindings, type FindingFilters } from '../db/findings.ts';
import { uuidv7 } from '../db/ids.ts';
import { preparedQuery } from '../db/prepared-query.ts';
import { countScans, listScans } from '../db/scans.ts';
import { CATALOG, FINDING_TYPES } from '../scanner/catalog/index.ts';
import { SEVERITIES } from '../scanner/vocabulary.ts';
import * as admin from '../services/admin.ts';
import { TEST_CONFIG } from './support/api.ts';
import { freshDatabase, type TestDatabase } from './support/database.ts';
import { FINDING_STATUSES, GRADES } from '../domain/vocabulary.ts';

let database: TestDatabase;
let db: DB;
let tenantId: string;
let sites: string[];
const STATUSES = FINDING_STATUSES;
const DAY = 86_400_000;
const base = Date.parse('2026-03-01T00:00:00.000Z');

beforeAll(async () => {
  database = await freshDatabase('lists');
  db = await openMigratedDatabase(database.location);
  const tenant = await admin.createTenant(
    { db: db, config: TEST_CONFIG },
    {
      name: 'Lijsten',
      plan: 'enterprise',
    },
  );
  tenantId = tenant.id;
  sites = [];
  for (let i = 0; i < 3; i++)
    sites.push(
      (
        await admin.createSite(
          { db: db, config: TEST_CONFIG },
          {
            tenant_id: tenantId,
            name: `S${i}`,
            url: `https://s${i}.example/`,
          },
        )
      ).id,
    );
  // 600 scans over 10 days, irregular times.
  const scans = Array.from({ length: 600 }, (_, i) => ({
    id: uuidv7(base + i),
    tenant_id: tenantId,
    site_id: sites[i % 3]!,
    url: 'https://s.example/',
    score: 50,
    grade: GRADES[(i * 7) % 5]!,
    ssl_score: 50,
    headers_score: 50,
    endpoints_score: 50,
    detected_platform: null,
    findings_count: 0,
    critical_count: 0,
    high_count: 0,
    medium_count: 0,
    low_count: 0,
    scanned_at: new Date(base + ((i * 37_123_457) % (10 * DAY))).toISOString(),
  }));
  await db.insertInto('scans').values(scans).execute();
  const texts = Object.values(CATALOG).slice(0, 12);
  const textIds: number[] = [];
  for (const { title, description, impact, remediation, expected_value, reference_url } of texts) {
    textIds.push(
      (
        await db
          .insertInto('finding_texts')
          .values({ title, description, impact, remediation, expected_value, reference_url })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  }
  const findings = Array.from({ length: 500 }, (_, i) => {
    const entry = texts[i % texts.length]!;
    const severity = SEVERITIES[(i * 3) % 4]!;
    return {
      id: uuidv7(base + i),
      tenant_id: tenantId,
      site_id: sites[i % 3]!,
      scan_id: scans[0]!.id,
      finding_type: FINDING_TYPES[i % FINDING_TYPES.length]!,
      category: entry.category,
      severity,
      severity_rank: SEVERITIES.indexOf(severity),
      status: STATUSES[i % 4]!,
      text_id: textIds[i % texts.length]!,
      endpoint: `https://s.example/${i}`,
      actual_value: null,
      created_at: new Date(base + ((i * 7_919) % 100_000) * 1000).toISOString(),
      last_seen_at: new Date(base).toISOString(),
      resolved_at: null,
    };
  });
  for (let i = 0; i < findings.length; i += 100)
    await db
      .insertInto('findings')
      .values(findings.slice(i, i + 100))
      .execute();
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

describe('finding list pages', () => {
  it('returns, at every offset and with filters, exactly the rows of the full ordered list', async () => {
    for (const filters of [
      {},
      { status: 'OPEN' },
      { siteId: undefined, category: 'SECURITY_HEADER' },
      { search: 'ontbreekt' },
    ] satisfies FindingFilters[]) {
      const all = (await listFindings(db, tenantId, filters, { limit: 500, offset: 0 })).rows.map((r) => r.id);
      const ranks = (await listFindings(db, tenantId, filters, { limit: 500, offset: 0 })).rows.map((r) =>
        SEVERITIES.indexOf(r.severity),
      );
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
      for (const offset of [0, 1, 49, 124, 125, 126, 250, 333, 374, 375, 499]) {
        const { rows, total } = await listFindings(db, tenantId, filters, { limit: 20, offset });
        expect(total).toBe(all.length);
        expect(rows.map((r) => r.id)).toEqual(all.slice(offset, offset + 20));
      }
    }
  });

  it('keeps the per-severity counts right when statuses change (triggers)', async () => {
    const first = (await listFindings(db, tenantId, { status: 'OPEN' }, { limit: 1, offset: 0 })).rows[0]!;
    const before = await listFindings(db, tenantId, { status: 'OPEN' }, { limit: 1, offset: 0 });
    await db.updateTable('findings').set({ status: 'RESOLVED' }).where('id', '=', first.id).execute();
    const after = await listFindings(db, tenantId, { status: 'OPEN' }, { limit: 1, offset: 0 });
    expect(after.total).toBe(before.total - 1);
  });
});

describe('count tables', () => {
  const stored = async () =>
    (
      await db
        .selectFrom('finding_counts')
        .select(['site_id', 'text_id', 'category', 'status', 'severity', 'n'])
        .where('tenant_id', '=', tenantId)
        .where('n', '<>', 0)
        .execute()
    )
      .map((row) => `${row.site_id}|${row.text_id}|${row.category}|${row.status}|${row.severity}=${row.n}`)
      .sort();
  const counted = async () => {
    const rows = await db
      .selectFrom('findings')
      .select(['site_id', 'text_id', 'category', 'status', 'severity'])
      .where('tenant_id', '=', tenantId)
      .execute();
    const counts = new Map<string, number>();
    for (const row of rows) {
      for (const site of ['', row.site_id]) {
        const key = `${site}|${row.text_id}|${row.category}|${row.status}|${row.severity}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
    return [...counts].map(([key, n]) => `${key}=${n}`).sort();
  };

  it('equal a row-by-row count after many-row inserts, updates (changing keys or not) and deletes', async () => {
    expect(await stored()).toEqual(await counted());
    const some = (
      await db.selectFrom('findings').select('id').where('tenant_id', '=', tenantId).orderBy('id').limit(60).execute()
    ).map((row) => row.id);
    await db.updateTable('findings').set({ status: 'IN_PROGRESS' }).where('id', 'in', some.slice(0, 40)).execute();
    await db.updateTable('findings').set({ last_seen_at: new Date().toISOString() }).where('id', 'in', some).execute();
    await db.updateTable('findings').set({ site_id: sites[2]! }).where('id', 'in', some.slice(30, 50)).execute();
    expect(await stored()).toEqual(await counted());
    const gone = await db.selectFrom('findings').selectAll().where('id', 'in', some.slice(50)).execute();
    await db.deleteFrom('findings').where('id', 'in', some.slice(50)).execute();
    expect(await stored()).toEqual(await counted());
    await db.insertInto('findings').values(gone).execute();
    expect(await stored()).toEqual(await counted());
  });

  it('stay right, without deadlocks, when many transactions change the same counts at once', async () => {
    const template = await db.selectFrom('findings').selectAll().where('tenant_id', '=', tenantId).limit(40).execute();
    await Promise.all(
      Array.from({ length: 8 }, (_, t) =>
        db.transaction().execute(async (trx) => {
          // Each transaction touches the same groups in a different row order.
          const rows = template
            .map((row, i) => ({
              ...row,
              id: uuidv7(),
              site_id: sites[(i + t) % 3]!,
              endpoint: `https://s.example/c${t}-${i}`,
            }))
            .sort(() => (t % 2 ? 1 : -1));
          await trx.insertInto('findings').values(rows).execute();
          await trx
            .updateTable('findings')
            .set({ status: 'IN_PROGRESS' })
            .where(
              'id',
              'in',
              rows.slice(t, t + 10).map((row) => row.id),
            )
            .execute();
        }),
      ),
    );
    expect(await stored()).toEqual(await counted());
  });
});

describe('scan counts', () => {
  it('equal a row-by-row count for every combination of site, grade, since and until', async () => {
    const moments = [
      undefined,
      '2026-03-01T00:00:00.000Z',
      '2026-03-03T07:30:00.000Z',
      '2026-03-03T19:00:00.000Z',
      '2026-03-06T00:00:00.000Z',
      '2026-03-09T23:59:59.999Z',
      '2026-04-01T00:00:00.000Z',
    ];
    for (const siteId of [undefined, sites[1]]) {
      for (const grade of [undefined, 'goed'] as const) {
        for (const since of moments) {
          for (const until of moments) {
            const filters = { siteId, grade, since, until };
            const { rows } = await listScans(db, tenantId, filters, { limit: 1000, offset: 0 });
            expect(await countScans(db, tenantId, filters), JSON.stringify(filters)).toBe(rows.length);
          }
        }
      }
    }
  });
});

describe('queries built once per shape (db/prepared-query.ts)', () => {
  const sitesByName = preparedQuery((db, a: { tenantId: string; name?: string; ids?: string[] }) => {
    let query = db.selectFrom('sites').select(['id', 'name']).where('tenant_id', '=', a.tenantId);
    if (a.name) query = query.where('name', '=', a.name);
    if (a.ids) query = query.where('id', 'in', a.ids);
    return query.orderBy('name');
  });

  it("binds each call's own values, and builds anew for another shape or list length", async () => {
    expect((await sitesByName(db, { tenantId, name: 'S1' })).map((s) => s.name)).toEqual(['S1']);
    // Same shape, other values: the compiled query is reused, the values are not.
    expect((await sitesByName(db, { tenantId, name: 'S2' })).map((s) => s.name)).toEqual(['S2']);
    expect(await sitesByName(db, { tenantId: uuidv7(), name: 'S2' })).toEqual([]);
    // A missing argument is another shape: no filter, not a filter on null.
    expect((await sitesByName(db, { tenantId, name: undefined })).map((s) => s.name)).toEqual(['S0', 'S1', 'S2']);
    expect((await sitesByName(db, { tenantId, ids: [sites[0]!] })).map((s) => s.name)).toEqual(['S0']);
    expect((await sitesByName(db, { tenantId, ids: [sites[2]!, sites[1]!] })).map((s) => s.name)).toEqual(['S1', 'S2']);
    expect((await sitesByName(db, { tenantId, ids: [sites[1]!] })).map((s) => s.name)).toEqual(['S1']);
  });
});
