import { performance } from 'node:perf_hooks';
import type { DB } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { Insertable } from 'kysely';
import { uuidv7 } from '../db/ids.ts';
import { CATALOG, FINDING_TYPES } from '../scanner/catalog/index.ts';
import { SEVERITIES } from '../scanner/vocabulary.ts';
import * as admin from '../services/admin.ts';
import { loadConfig } from '../infra/config.ts';
import { GRADES, type FindingStatus } from '../domain/vocabulary.ts';

export interface SeededTenant {
  tenantId: string;
  key: string;
  siteIds: string[];
}

const BATCH = 1000;
const STATUSES: FindingStatus[] = [
  'OPEN',
  'OPEN',
  'OPEN',
  'OPEN',
  'IN_PROGRESS',
  'RESOLVED',
  'RESOLVED',
  'ACCEPTED_RISK',
];
/** Key caps that no bench key runs into. */
export const BENCH_CONFIG = loadConfig({
  MAX_ACTIVE_KEYS_PER_USER: '1000',
  MAX_ACTIVE_KEYS_PER_TENANT: '1000',
  MAX_KEYS_CREATED_PER_USER_PER_DAY: '1000',
});

async function insertBatches<T extends 'findings' | 'scans' | 'sites'>(
  db: DB,
  table: T,
  rows: Insertable<Database[T]>[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += BATCH)
      await trx
        .insertInto(table)
        .values(rows.slice(i, i + BATCH))
        .execute();
  });
}

/** A stored scan of a site, with a grade and score that vary with n. */
function scanRow(tenantId: string, siteId: string, n: number, at: number) {
  return {
    id: uuidv7(at),
    tenant_id: tenantId,
    site_id: siteId,
    url: 'https://bench.example/',
    score: 40 + (n % 60),
    grade: GRADES[n % GRADES.length]!,
    ssl_score: 80,
    headers_score: 70,
    endpoints_score: 60,
    detected_platform: null,
    findings_count: 4,
    critical_count: 1,
    high_count: 1,
    medium_count: 1,
    low_count: 1,
    scanned_at: new Date(at).toISOString(),
  };
}

/** A tenant on the enterprise plan with one user and a key that no limit gets in the way of. */
export async function benchTenant(db: DB, name: string): Promise<{ tenantId: string; userId: string; key: string }> {
  const tenant = await admin.createTenant({ db, config: BENCH_CONFIG }, { name: name, plan: 'enterprise' });
  const user = await admin.createUser(
    { db, config: BENCH_CONFIG },
    {
      tenant_id: tenant.id,
      email: `${name.toLowerCase().replace(/\W+/g, '-')}-${uuidv7().slice(-6)}@bench.example`,
    },
  );
  const key = await admin.createKey(
    { db, config: BENCH_CONFIG },
    {
      user_id: user.id,
      name: 'bench',
      permissions: ['read_scans', 'write_scans', 'read_findings'],
      rate_limit: 100_000,
    },
  );
  return { tenantId: tenant.id, userId: user.id, key: key.key };
}

export async function extraKey(db: DB, userId: string): Promise<string> {
  return (
    await admin.createKey(
      { db, config: BENCH_CONFIG },
      {
        user_id: userId,
        name: 'bench',
        permissions: ['read_scans', 'write_scans', 'read_findings'],
        rate_limit: 100_000,
      },
    )
  ).key;
}

/** How much to seed: the full run, or a tenth of it (--quick). */
export interface SeedSize {
  tenants: number;
  /** Sites of the largest tenant; the others share four times as many. */
  largestSites: number;
}

export const FULL_SEED: SeedSize = { tenants: 100, largestSites: 2_000 };
export const QUICK_SEED: SeedSize = { tenants: 10, largestSites: 200 };

/**
 * 100 findings per site over tenants × sites: in full 1,000,000 findings over 10,000 sites and 100
 * tenants, the largest tenant holding 2,000 sites with 200,000 findings. Every site has one scan;
 * findings use the real catalog texts.
 */
export async function seedFindings(
  db: DB,
  log: (line: string) => void,
  size: SeedSize = FULL_SEED,
): Promise<{ largest: SeededTenant; seconds: number }> {
  const started = performance.now();
  const types = FINDING_TYPES.map((type) => [type, CATALOG[type]] as const);
  const textIds: number[] = [];
  for (const [, entry] of types) {
    const { title, description, impact, remediation, expected_value, reference_url } = entry;
    const row = await db
      .insertInto('finding_texts')
      .values({ title, description, impact, remediation, expected_value, reference_url })
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst();
    textIds.push(
      row?.id ??
        (
          await db
            .selectFrom('finding_texts')
            .select('id')
            .where('title', '=', title)
            .where('description', '=', description)
            .executeTakeFirstOrThrow()
        ).id,
    );
  }
  let largest: SeededTenant | null = null;
  const base = Date.parse('2026-01-01T00:00:00.000Z');
  let findingNo = 0;
  const others = size.largestSites * 4;
  for (let t = 0; t < size.tenants; t++) {
    const { tenantId, key } = await benchTenant(db, `Bench tenant ${t}`);
    const siteCount =
      t === 0
        ? size.largestSites
        : Math.floor(others / (size.tenants - 1)) + (t <= others % (size.tenants - 1) ? 1 : 0);
    const sites = Array.from({ length: siteCount }, (_, i) => ({
      id: uuidv7(),
      tenant_id: tenantId,
      name: `Site ${t}-${i}`,
      url: `https://site-${t}-${i}.bench.example/`,
      detected_platform: null,
      created_at: new Date(base).toISOString(),
    }));
    await insertBatches(db, 'sites', sites);
    const scans = sites.map((site, i) => scanRow(tenantId, site.id, i, base + i * 60_000));
    await insertBatches(db, 'scans', scans);
    const findings = [];
    for (let s = 0; s < sites.length; s++) {
      for (let k = 0; k < 100; k++) {
        const typeIndex = (s * 7 + k) % types.length;
        const [finding_type, entry] = types[typeIndex]!;
        findingNo += 1;
        const createdAt = new Date(base + findingNo * 1_000).toISOString();
        findings.push({
          id: uuidv7(base + findingNo),
          tenant_id: tenantId,
          site_id: sites[s]!.id,
          scan_id: scans[s]!.id,
          finding_type,
          category: entry.category,
          severity: entry.severity,
          severity_rank: SEVERITIES.indexOf(entry.severity),
          status: STATUSES[(s + k) % STATUSES.length]!,
          text_id: textIds[typeIndex]!,
          endpoint: `${sites[s]!.url}${k}`,
          actual_value: null,
          created_at: createdAt,
          last_seen_at: createdAt,
          resolved_at: null,
        });
      }
    }
    await insertBatches(db, 'findings', findings);
    if (t === 0) largest = { tenantId, key, siteIds: sites.map((s) => s.id) };
    if (t % 10 === 0)
      log(
        `  seeded tenant ${t + 1}/${size.tenants}, ${findingNo} findings, ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
  }
  return { largest: largest!, seconds: (performance.now() - started) / 1000 };
}

/** Adds scans to one tenant's sites until it holds `total` scans. */
export async function seedScans(db: DB, tenant: SeededTenant, total: number): Promise<void> {
  const existing = Number(
    (
      await db
        .selectFrom('scans')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('tenant_id', '=', tenant.tenantId)
        .executeTakeFirstOrThrow()
    ).n,
  );
  const base = Date.parse('2026-02-01T00:00:00.000Z');
  const rows = Array.from({ length: total - existing }, (_, i) =>
    scanRow(tenant.tenantId, tenant.siteIds[i % tenant.siteIds.length]!, i, base + i * 30_000),
  );
  await insertBatches(db, 'scans', rows);
}
