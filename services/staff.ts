import { findTenant, findUser, suspendTenant, teamOfTenant, tenantsOverview, unsuspendTenant } from '../db/tenancy.ts';
import { NotFound } from '../domain/errors.ts';
import { assertStaff, type UserPrincipal } from './accounts.ts';
import { isoNow, type ServiceDeps } from './deps.ts';
import { applyBlock, personView } from './team.ts';

// What the service's own team does across tenants in the dashboard (besides reviewing suggestions).

export async function allTenants({ db }: ServiceDeps, staff: UserPrincipal) {
  assertStaff(staff);
  return (await tenantsOverview(db)).map((t) => ({ ...t, users: Number(t.users), suspended: t.suspended_at !== null }));
}

/** The people of any tenant, to block one across tenants. */
export async function peopleOfTenant({ db }: ServiceDeps, staff: UserPrincipal, input: { tenant_id: string }) {
  assertStaff(staff);
  if (!(await findTenant(db, input.tenant_id))) throw new NotFound('Account');
  return (await teamOfTenant(db, input.tenant_id)).map(personView);
}

/** A suspended tenant's keys and sessions stop working at once (the lookups check the tenant). */
export async function setTenantSuspended(
  deps: ServiceDeps,
  staff: UserPrincipal,
  input: { tenant_id: string; suspended: boolean },
) {
  assertStaff(staff);
  const { db } = deps;
  if (!(await findTenant(db, input.tenant_id))) throw new NotFound('Account');
  if (input.suspended) await suspendTenant(db, input.tenant_id, isoNow(deps));
  else await unsuspendTenant(db, input.tenant_id);
  return { id: input.tenant_id, suspended: input.suspended };
}

export async function setUserBlockedByStaff(
  deps: ServiceDeps,
  staff: UserPrincipal,
  input: { user_id: string; blocked: boolean },
) {
  assertStaff(staff);
  if (!(await findUser(deps.db, input.user_id))) throw new NotFound('Gebruiker');
  await applyBlock(deps.db, input.user_id, input.blocked, isoNow(deps));
  return { id: input.user_id, blocked: input.blocked };
}
