import { randomUUID } from 'node:crypto';
import type { Insertable, Selectable } from 'kysely';
import type { DB } from './database.ts';
import type { ControlClaimsTable, OperatorAuditTable, VerificationChecksTable } from './schema.ts';

// Proof of control: the tenant's token, the names it has shown control of, the last outcome of each
// method per site, and the operators' audit trail. Every query is scoped to a tenant.

export type ClaimRow = Selectable<ControlClaimsTable>;
export type CheckRow = Selectable<VerificationChecksTable>;

export async function tenantToken(db: DB, tenantId: string): Promise<string | null> {
  const row = await db.selectFrom('tenants').select('verification_token').where('id', '=', tenantId).executeTakeFirst();
  return row?.verification_token ?? null;
}

/** Sets the token when `onlyIfEmpty` finds none (two first uses at once keep one), or replaces it. */
export async function setTenantToken(db: DB, tenantId: string, token: string, onlyIfEmpty: boolean) {
  let update = db.updateTable('tenants').set({ verification_token: token }).where('id', '=', tenantId);
  if (onlyIfEmpty) update = update.where('verification_token', 'is', null);
  await update.execute();
}

export async function claimsOfTenant(db: DB, tenantId: string): Promise<ClaimRow[]> {
  return db
    .selectFrom('control_claims')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('verified_at')
    .orderBy('id')
    .execute();
}

/** Stores a claim as found now: a new one, or the same method and name made current again. */
export async function putClaim(db: DB, claim: Omit<Insertable<ControlClaimsTable>, 'id'>) {
  await db
    .insertInto('control_claims')
    .values({ id: randomUUID(), ...claim })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'method', 'name']).doUpdateSet({
        origin: claim.origin ?? null,
        status: claim.status,
        verified_at: claim.verified_at,
        confirmed_at: claim.confirmed_at,
        checked_at: claim.checked_at,
        lost_at: claim.lost_at ?? null,
        reason: claim.reason ?? null,
        until: claim.until ?? null,
      }),
    )
    .execute();
}

export async function updateClaim(
  db: DB,
  tenantId: string,
  id: string,
  patch: Partial<Pick<ClaimRow, 'status' | 'confirmed_at' | 'checked_at' | 'lost_at' | 'reason'>>,
) {
  await db.updateTable('control_claims').set(patch).where('tenant_id', '=', tenantId).where('id', '=', id).execute();
}

export async function deleteClaims(db: DB, tenantId: string, ids: readonly string[]) {
  if (ids.length === 0) return;
  await db.deleteFrom('control_claims').where('tenant_id', '=', tenantId).where('id', 'in', ids).execute();
}

/** Makes every claim of the tenant due for a check (a new token must be seen before the next intrusive scan). */
export async function markClaimsDue(db: DB, tenantId: string) {
  await db
    .updateTable('control_claims')
    .set({ checked_at: new Date(0).toISOString() })
    .where('tenant_id', '=', tenantId)
    .where('method', '!=', 'operator')
    .execute();
}

export async function storeCheck(db: DB, check: Insertable<VerificationChecksTable>) {
  await db
    .insertInto('verification_checks')
    .values(check)
    .onConflict((oc) =>
      oc
        .columns(['site_id', 'method'])
        .doUpdateSet({ outcome: check.outcome, reason: check.reason, checked_at: check.checked_at }),
    )
    .execute();
}

export async function checksOfSite(db: DB, tenantId: string, siteId: string): Promise<CheckRow[]> {
  return db
    .selectFrom('verification_checks')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('site_id', '=', siteId)
    .execute();
}

export async function insertAudit(db: DB, entry: Omit<Insertable<OperatorAuditTable>, 'id'>) {
  await db
    .insertInto('operator_audit')
    .values({ id: randomUUID(), ...entry })
    .execute();
}

export async function auditOfTenant(db: DB, tenantId: string) {
  return db.selectFrom('operator_audit').selectAll().where('tenant_id', '=', tenantId).orderBy('at').execute();
}

/** Tenants with a scheduled site and a claim checked before `before`: the scheduler's daily re-checks. */
export async function tenantsWithDueClaims(db: DB, before: string): Promise<string[]> {
  const rows = await db
    .selectFrom('control_claims')
    .select('control_claims.tenant_id')
    .distinct()
    .where('control_claims.status', '=', 'verified')
    .where('control_claims.method', '!=', 'operator')
    .where('control_claims.checked_at', '<', before)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('sites')
          .select('sites.id')
          .whereRef('sites.tenant_id', '=', 'control_claims.tenant_id')
          .where('sites.scan_interval_hours', 'is not', null),
      ),
    )
    .execute();
  return rows.map((r) => r.tenant_id);
}
