import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigratedDatabase, type DB } from '../db/database.ts';
import { listFindings, type FindingFilters } from '../db/findings.ts';
import { uuidv7 } from '../db/ids.ts';
import { countScans, listScans } from '../db/scans.ts';
import { CATALOG, FINDING_TYPES } from '../scanner/catalog/index.ts';
import { SEVERITIES } from '../scanner/vocabulary.ts';
import * as admin from '../services/admin.ts';
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
  const tenant = await admin.createTenant(db, 'Lijsten', 'enterprise');
  tenantId = tenant.id;
  sites = [];
  for (let i = 0; i < 3; i++) sites.push((await admin.createSite(db, tenantId, `S${i}`, `https://s${i}.example/`)).id);
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
    textIds.push((await db.insertInto('finding_texts').values({ title, description, impact, remediation, expected_value, reference_url }).returning('id').executeTakeFirstOrThrow()).id);
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
  for (let i = 0; i < findings.length; i += 100) await db.insertInto('findings').values(findings.slice(i, i + 100)).execute();
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

describe('finding list pages', () => {
  it('returns, at every offset and with filters, exactly the rows of the full ordered list', async () => {
    for (const filters of [{}, { status: 'OPEN' }, { siteId: undefined, category: 'SECURITY_HEADER' }, { search: 'ontbreekt' }] satisfies FindingFilters[]) {
      const all = (await listFindings(db, tenantId, filters, { limit: 500, offset: 0 })).rows.map((r) => r.id);
      const ranks = (await listFindings(db, tenantId, filters, { limit: 500, offset: 0 })).rows.map((r) => SEVERITIES.indexOf(r.severity));
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

describe('scan counts', () => {
  it('equal a row-by-row count for every combination of site, grade, since and until', async () => {
    const moments = [undefined, '2026-03-01T00:00:00.000Z', '2026-03-03T07:30:00.000Z', '2026-03-03T19:00:00.000Z', '2026-03-06T00:00:00.000Z', '2026-03-09T23:59:59.999Z', '2026-04-01T00:00:00.000Z'];
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
