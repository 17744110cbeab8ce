import { randomBytes } from 'node:crypto';
import type { DB } from '../db/database.ts';
import { acceptInvite, findInvite } from '../db/invites.ts';
import {
  deleteSession,
  deleteSessionsOfUser,
  findSession,
  insertSession,
  setPasswordHash,
  touchSession,
} from '../db/sessions.ts';
import { findUserByEmail, insertTenant, insertUser, planByTier } from '../db/tenancy.ts';
import type { Actor } from '../domain/actor.ts';
import { Conflict, ERRORS, Forbidden, Invalid, NotFound, TooManyRequests, Unauthenticated } from '../domain/errors.ts';
import { ROLE_PERMISSIONS, type Role } from '../domain/vocabulary.ts';
import { nowOf, type ServiceDeps } from './deps.ts';
import { decoyHash, hashPassword, verifyPassword } from '../infra/passwords.ts';
import { secretDigest } from '../infra/bearer-digest.ts';

/** A person logged in to the dashboard. */
export interface UserPrincipal extends Actor {
  actor: { kind: 'user'; id: string };
  email: string;
  role: Role;
  isStaff: boolean;
}

const MINUTE = 60_000;
/** A session ends after 12 hours without use, and 7 days after log-in whatever happens. */
export const SESSION_IDLE_MS = 12 * 60 * MINUTE;
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * MINUTE;
/** Log-in attempts per 15 minutes, per account and per address. */
const LOGIN_ATTEMPTS = { perAccount: 10, perAddress: 30, windowMs: 15 * MINUTE };
export const MIN_PASSWORD_LENGTH = 12;

/** One message for an unknown address and a wrong password: the answer says nothing about which. */
const WRONG_CREDENTIALS = 'E-mailadres of wachtwoord onjuist.';

export interface NewSession {
  /** The session id for the cookie; stored only as its hash. */
  token: string;
  expiresAt: string;
}

async function startSession(db: DB, userId: string, now: number): Promise<NewSession> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now + SESSION_ABSOLUTE_MS).toISOString();
  await insertSession(db, {
    id_hash: secretDigest(token),
    user_id: userId,
    created_at: new Date(now).toISOString(),
    last_seen_at: new Date(now).toISOString(),
    expires_at: expiresAt,
  });
  return { token, expiresAt };
}

export function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw new Invalid(`password: minimaal ${MIN_PASSWORD_LENGTH} tekens.`);
}

/** Who calls before logging in: a browser at an address, with no account yet. */
export interface Visitor {
  address: string;
}

/** Sign-up: a tenant on the free plan with its first user as owner, logged in at once. */
export async function signUp(deps: ServiceDeps, input: { email: string; password: string; organisation: string }) {
  const { db } = deps;
  const now = nowOf(deps);
  checkPassword(input.password);
  const email = input.email.trim().toLowerCase();
  if (await findUserByEmail(db, email)) throw new Conflict('Er bestaat al een account met dit e-mailadres.');
  const plan = (await planByTier(db, 'free'))!;
  const passwordHash = await hashPassword(input.password);
  const at = new Date(now).toISOString();
  const tenant = await insertTenant(db, input.organisation.trim(), plan.id, at);
  const user = await insertUser(db, tenant.id, email, at, { role: 'owner', passwordHash });
  return {
    user: { id: user.id, email, role: user.role, tenant_id: tenant.id },
    session: await startSession(db, user.id, now),
  };
}

/**
 * Log-in with email and password. Limited per account and per client address; a blocked user, a
 * suspended tenant, an unknown address and a wrong password all get the same answer.
 */
export async function logIn(
  deps: ServiceDeps,
  visitor: Visitor,
  input: { email: string; password: string },
): Promise<NewSession> {
  const { db, counters } = deps;
  if (!counters) throw new Error('logIn counts attempts: deps.counters is required');
  const email = input.email.trim().toLowerCase();
  const [account, address] = await Promise.all([
    counters.increment(`login:${email}`, LOGIN_ATTEMPTS.windowMs),
    counters.increment(`login-ip:${visitor.address}`, LOGIN_ATTEMPTS.windowMs),
  ]);
  const refused =
    account.count > LOGIN_ATTEMPTS.perAccount ? account : address.count > LOGIN_ATTEMPTS.perAddress ? address : null;
  if (refused) {
    const seconds = Math.max(1, Math.ceil(refused.ttlMs / 1000));
    throw new TooManyRequests(`Te veel inlogpogingen: probeer het over ${seconds} seconden opnieuw.`, seconds);
  }
  const user = await findUserByEmail(db, email);
  const valid = await verifyPassword(input.password, user?.password_hash ?? (await decoyHash()));
  if (!user?.password_hash || !valid || user.blocked_at) throw new Unauthenticated(WRONG_CREDENTIALS);
  return startSession(db, user.id, nowOf(deps));
}

export async function logOut({ db }: ServiceDeps, input: { token: string }): Promise<void> {
  await deleteSession(db, secretDigest(input.token));
}

/** Joins the inviting tenant with the invited role and a chosen password, logged in at once. */
export async function acceptInvitation(deps: ServiceDeps, input: { token: string; password: string }) {
  const { db } = deps;
  const now = nowOf(deps);
  checkPassword(input.password);
  const tokenHash = secretDigest(input.token);
  const invite = await findInvite(db, tokenHash);
  if (!invite || invite.accepted_at || Date.parse(invite.expires_at) <= now)
    throw new NotFound('Uitnodiging (of ze is al gebruikt of verlopen)');
  if (await findUserByEmail(db, invite.email)) throw new Conflict('Er bestaat al een account met dit e-mailadres.');
  const passwordHash = await hashPassword(input.password);
  const user = await db.transaction().execute(async (trx) => {
    if (!(await acceptInvite(trx, tokenHash, new Date(now).toISOString())))
      throw new NotFound('Uitnodiging (of ze is al gebruikt of verlopen)');
    return insertUser(trx, invite.tenant_id, invite.email, new Date(now).toISOString(), {
      role: invite.role,
      passwordHash,
    });
  });
  return startSession(db, user.id, now);
}

/** A new password ends every session of the user, this one included; a fresh one is returned. */
export async function changePassword(
  deps: ServiceDeps,
  user: UserPrincipal,
  input: { current: string; next: string },
): Promise<NewSession> {
  checkPassword(input.next);
  const { db } = deps;
  const row = await findUserByEmail(db, user.email);
  if (!row?.password_hash || !(await verifyPassword(input.current, row.password_hash)))
    throw new Invalid('current: het huidige wachtwoord klopt niet.');
  await setPasswordHash(db, row.id, await hashPassword(input.next));
  await deleteSessionsOfUser(db, row.id);
  return startSession(db, row.id, nowOf(deps));
}

/** Team management is the owner's. */
export function assertOwner(user: UserPrincipal): void {
  if (user.role !== 'owner') throw new Forbidden(ERRORS.ownerOnly);
}

/** The review queue and actions across tenants are the service's own team's. */
export function assertStaff(user: UserPrincipal): void {
  if (!user.isStaff) throw new Forbidden(ERRORS.staffOnly);
}

/** Who a session cookie belongs to, or null when it is unknown, expired, or its user may not act. */
export async function authenticateSession(db: DB, token: string, now: number): Promise<UserPrincipal | null> {
  const idHash = secretDigest(token);
  const row = await findSession(db, idHash);
  if (!row) return null;
  const idle = Date.parse(row.last_seen_at) + SESSION_IDLE_MS <= now;
  if (idle || Date.parse(row.expires_at) <= now || row.blocked_at || row.suspended_at) {
    await deleteSession(db, idHash);
    return null;
  }
  // The idle clock moves at most once a minute: reading a page is not a write each time.
  if (now - Date.parse(row.last_seen_at) > MINUTE) await touchSession(db, idHash, new Date(now).toISOString());
  return {
    tenantId: row.tenant_id,
    actor: { kind: 'user', id: row.user_id },
    permissions: ROLE_PERMISSIONS[row.role],
    email: row.email,
    role: row.role,
    isStaff: row.is_staff === 1,
  };
}
