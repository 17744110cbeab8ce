import { randomBytes } from 'node:crypto';
import { insertInvite, openInvites } from '../db/invites.ts';
import { deleteSessionsOfUser } from '../db/sessions.ts';
import {
  blockUser,
  findTenant,
  findUser,
  findUserByEmail,
  setUserRole,
  teamOfTenant,
  unblockUser,
} from '../db/tenancy.ts';
import { mailInvitation } from './account-mail.ts';
import { Conflict, Invalid, NotFound } from '../domain/errors.ts';
import type { Role } from '../domain/vocabulary.ts';
import { assertOwner, type UserPrincipal } from './accounts.ts';
import { secretDigest } from '../infra/bearer-digest.ts';
import { isoNow, nowOf, type ServiceDeps } from './deps.ts';

/** An invitation link stays valid for 7 days and works once. */
export const INVITE_VALID_MS = 7 * 24 * 3_600_000;

/** A person as the team and platform pages show them: blocked or not, rather than when. */
export const personView = <T extends { blocked_at: string | null }>(user: T) => ({
  ...user,
  blocked: user.blocked_at !== null,
});

/** The tenant's people and open invitations. */
export async function listTeam(deps: ServiceDeps, owner: UserPrincipal) {
  assertOwner(owner);
  const [users, invites] = await Promise.all([
    teamOfTenant(deps.db, owner.tenantId),
    openInvites(deps.db, owner.tenantId, isoNow(deps)),
  ]);
  return { users: users.map(personView), invites };
}

/**
 * Invites a person by e-mail address with a role. With e-mail on the link goes to the address by
 * mail; without it the owner passes on the one-time link. Its token is in the URL's fragment
 * (browsers do not send it to servers or in Referer).
 */
export async function inviteMember(deps: ServiceDeps, owner: UserPrincipal, input: { email: string; role: Role }) {
  const { db } = deps;
  assertOwner(owner);
  const email = input.email.trim().toLowerCase();
  if (await findUserByEmail(db, email)) throw new Conflict('Er bestaat al een account met dit e-mailadres.');
  const token = randomBytes(32).toString('base64url');
  const now = nowOf(deps);
  const expiresAt = new Date(now + INVITE_VALID_MS).toISOString();
  await insertInvite(db, {
    token_hash: secretDigest(token),
    tenant_id: owner.tenantId,
    email,
    role: input.role,
    invited_by: owner.actor.id,
    created_at: new Date(now).toISOString(),
    expires_at: expiresAt,
    accepted_at: null,
  });
  const path = `/uitnodiging#${token}`;
  const tenant = await findTenant(db, owner.tenantId);
  const mailed = await mailInvitation(deps, { email, path, tenantName: tenant?.name ?? '' });
  return { email, role: input.role, expires_at: expiresAt, path, mailed };
}

/** A person of the owner's tenant other than the owner themselves: nobody locks themselves out. */
async function teamMember(db: ServiceDeps['db'], owner: UserPrincipal, userId: string) {
  const user = await findUser(db, userId);
  if (!user || user.tenant_id !== owner.tenantId) throw new NotFound('Gebruiker');
  if (user.id === owner.actor.id) throw new Invalid('U kunt uw eigen rol of toegang niet wijzigen.');
  return user;
}

export async function changeRole({ db }: ServiceDeps, owner: UserPrincipal, input: { user_id: string; role: Role }) {
  assertOwner(owner);
  await teamMember(db, owner, input.user_id);
  await setUserRole(db, input.user_id, input.role);
  return { id: input.user_id, role: input.role };
}

/** Blocks (sessions end, keys stop working at once, no new keys) or unblocks a team member. */
export async function setBlocked(
  deps: ServiceDeps,
  owner: UserPrincipal,
  input: { user_id: string; blocked: boolean },
) {
  assertOwner(owner);
  await teamMember(deps.db, owner, input.user_id);
  await applyBlock(deps.db, input.user_id, input.blocked, isoNow(deps));
  return { id: input.user_id, blocked: input.blocked };
}

/** Blocking ends the user's sessions; keys are refused by the key lookup itself. */
export async function applyBlock(db: ServiceDeps['db'], userId: string, blocked: boolean, now: string): Promise<void> {
  if (!blocked) return unblockUser(db, userId);
  await blockUser(db, userId, now);
  await deleteSessionsOfUser(db, userId);
}
