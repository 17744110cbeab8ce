import { findTenant, findUser, suspendTenant, teamOfTenant, tenantsOverview, unsuspendTenant } from '../db/tenancy.ts';
import { NotFound } from '../domain/errors.ts';
import { assertStaff, type UserPrincipal } from './accounts.ts';
import type { ServiceDeps } from './deps.ts';
import { applyBlock, personView } from './team.ts';

// What the service's own team does across tenants in the dashboard (besides reviewing suggestions).

export async function allTenants({ db }: Pick<ServiceDeps, 'db'>, staff: UserPrincipal) {
  assertStaff(staff);
  return (await tenantsOverview(db)).map((t) => ({ ...t, users: Number(t.users), suspended: t.suspended_at !== null }));
}

/** The people of any tenant, to block one across tenants. */
export async function peopleOfTenant({ db }: Pick<ServiceDeps, 'db'>, staff: UserPrincipal, tenantId: string) {
  assertStaff(staff);
  if (!(await findTenant(db, tenantId))) throw new NotFound('Account');
  return (await teamOfTenant(db, tenantId)).map(personView);
}

/** A suspended tenant's keys and sessions stop working at once (the lookups check the tenant). */
export async function setTenantSuspended(
  { db }: Pick<ServiceDeps, 'db'>,
  staff: UserPrincipal,
  input: { tenantId: string; suspended: boolean },
) {
  assertStaff(staff);
  if (!(await findTenant(db, input.tenantId))) throw new NotFound('Account');
  if (input.suspended) await suspendTenant(db, input.tenantId);
  else await unsuspendTenant(db, input.tenantId);
  return { id: input.tenantId, suspended: input.suspended };
}

export async function setUserBlockedByStaff(
  { db }: Pick<ServiceDeps, 'db'>,
  staff: UserPrincipal,
  input: { userId: string; blocked: boolean },
) {
  assertStaff(staff);
  if (!(await findUser(db, input.userId))) throw new NotFound('Gebruiker');
  await applyBlock(db, input.userId, input.blocked);
  return { id: input.userId, blocked: input.blocked };
}
