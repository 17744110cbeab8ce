import { randomUUID } from 'node:crypto';
import type { DB } from '../db/database.ts';
import {
  enqueueNotifications,
  insertSignupConfirmation,
  resetRequestsSince,
  redeemPasswordReset,
  redeemSignupConfirmation,
} from '../db/notifications.ts';
import { deleteSessionsOfUser, setPasswordHash } from '../db/sessions.ts';
import { findUser, findUserByEmail, insertTenant, insertUser, planByTier } from '../db/tenancy.ts';
import { DASHBOARD_PAGES, MAIL_PAGES } from '../domain/endpoints.ts';
import { Invalid, TooManyRequests } from '../domain/errors.ts';
import { hashPassword } from '../infra/passwords.ts';
import { checkPassword, signUp, type Visitor } from './accounts.ts';
import { isoNow, nowOf, type ServiceDeps } from './deps.ts';
import { oneTimeToken, publicLink, tokenHash } from './notifications/links.ts';
import type { PlainBody } from './notifications/message.ts';

const HOUR = 3_600_000;
/** Reset requests per hour, per address and per client. */
const RESET_LIMITS = { perAddress: 5, perClient: 20, windowMs: HOUR };
/** How long a sign-up's confirmation link works. */
const SIGNUP_VALID_MS = 24 * HOUR;

export const CHECK_YOUR_MAIL = 'Controleer uw e-mail: als het adres klopt, staat daar een link om verder te gaan.';

/** Account mail to one address, at once, without unsubscribe. */
function accountMail(db: DB, address: string, body: PlainBody | { kind: 'reset_request' }, key: string, now: string) {
  return enqueueNotifications(
    db,
    [
      {
        tenant_id: null,
        rule_id: null,
        channel_id: null,
        address,
        category: 'account',
        dedupe_key: key,
        body,
        next_attempt_at: now,
      },
    ],
    now,
  );
}

function mailOn(deps: ServiceDeps): void {
  if (!deps.config.SMTP_URL)
    throw new Invalid('E-mail staat uit op deze dienst: vraag de beheerder om uw wachtwoord te herstellen.');
}

/**
 * "Wachtwoord vergeten": the same answer, at the same speed, for every address. Only a job is
 * queued here; the worker looks the address up, and an unknown one gets no mail
 * (OWASP Forgot Password Cheat Sheet). Limited per address and per client.
 */
export async function requestPasswordReset(deps: ServiceDeps, visitor: Visitor, input: { email: string }) {
  mailOn(deps);
  const { db, counters } = deps;
  if (!counters) throw new Error('requestPasswordReset counts requests: deps.counters is required');
  const email = input.email.trim().toLowerCase();
  const [perAddress, perClient] = await Promise.all([
    counters.increment(`reset:${email}`, RESET_LIMITS.windowMs),
    counters.increment(`reset-ip:${visitor.address}`, RESET_LIMITS.windowMs),
  ]);
  const refused =
    perAddress.count > RESET_LIMITS.perAddress
      ? perAddress
      : perClient.count > RESET_LIMITS.perClient
        ? perClient
        : null;
  if (refused) {
    const seconds = Math.max(1, Math.ceil(refused.ttlMs / 1000));
    throw new TooManyRequests(`Te veel verzoeken: probeer het over ${seconds} seconden opnieuw.`, seconds);
  }
  const now = isoNow(deps);
  if ((await resetRequestsSince(db, email, new Date(nowOf(deps) - HOUR).toISOString())) < RESET_LIMITS.perAddress)
    await accountMail(db, email, { kind: 'reset_request' }, `reset-request:${randomUUID()}`, now);
  return { ok: true as const, message: CHECK_YOUR_MAIL };
}

/** Sets a new password with a reset link's token: once, within 30 minutes; every session ends, nobody is logged in. */
export async function resetPassword(deps: ServiceDeps, input: { token: string; password: string }) {
  checkPassword(input.password);
  const { db } = deps;
  const now = isoNow(deps);
  const userId = /^[A-Za-z0-9_-]{43}$/.test(input.token)
    ? await redeemPasswordReset(db, tokenHash(input.token), now)
    : null;
  if (!userId) throw new Invalid('token: deze herstellink is ongeldig, verlopen of al gebruikt. Vraag een nieuwe aan.');
  await setPasswordHash(db, userId, await hashPassword(input.password));
  await deleteSessionsOfUser(db, userId);
  const user = await findUser(db, userId);
  if (user)
    await accountMail(
      db,
      user.email,
      {
        kind: 'reset_done',
        subject: 'Uw wachtwoord is gewijzigd',
        lines: [
          'Het wachtwoord van uw account is zojuist opnieuw ingesteld; elke sessie is beëindigd.',
          'Was u dit niet, neem dan direct contact op met uw beheerder.',
        ],
        link: { label: 'Inloggen', url: publicLink(deps, DASHBOARD_PAGES.login) },
      },
      `reset-done:${randomUUID()}`,
      now,
    );
  return { ok: true as const };
}

/**
 * Sign-up with e-mail on: the same answer for a new and a known address, and nothing exists until
 * the link in the mail is used. A known address gets a mail saying so instead.
 */
export async function signUpByMail(
  deps: ServiceDeps,
  input: { email: string; password: string; organisation: string },
) {
  checkPassword(input.password);
  const { db } = deps;
  const email = input.email.trim().toLowerCase();
  const now = nowOf(deps);
  const at = new Date(now).toISOString();
  // Hashed either way: the answer takes as long for a known address as for a new one.
  const passwordHash = await hashPassword(input.password);
  if (await findUserByEmail(db, email)) {
    await accountMail(
      db,
      email,
      {
        kind: 'signup_exists',
        subject: 'U heeft al een account',
        lines: [
          'Iemand probeerde met dit adres een account aan te maken, maar er bestaat er al een. Wachtwoord vergeten? Herstel het op de inlogpagina.',
        ],
        link: { label: 'Inloggen', url: publicLink(deps, DASHBOARD_PAGES.login) },
      },
      `signup-exists:${randomUUID()}`,
      at,
    );
    return { ok: true as const, message: CHECK_YOUR_MAIL };
  }
  const { token, hash } = oneTimeToken();
  await insertSignupConfirmation(db, {
    token_hash: hash,
    email,
    password_hash: passwordHash,
    organisation: input.organisation.trim(),
    expires_at: new Date(now + SIGNUP_VALID_MS).toISOString(),
    created_at: at,
  });
  await accountMail(
    db,
    email,
    {
      kind: 'signup_confirm',
      subject: 'Bevestig uw account',
      lines: ['Bevestig uw e-mailadres om uw account te activeren. De link werkt 24 uur.'],
      link: { label: 'Account activeren', url: publicLink(deps, `${MAIL_PAGES.confirmAccount}?token=${token}`) },
    },
    `signup-confirm:${hash.slice(0, 24)}`,
    at,
  );
  return { ok: true as const, message: CHECK_YOUR_MAIL };
}

/** Activates a sign-up by its link (once): the tenant and its owner are made now. False for an unknown, used or expired link. */
export async function confirmSignUp(deps: ServiceDeps, token: string): Promise<boolean> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return false;
  const { db } = deps;
  const at = isoNow(deps);
  return db.transaction().execute(async (trx) => {
    const signup = await redeemSignupConfirmation(trx, tokenHash(token), at);
    if (!signup || (await findUserByEmail(trx, signup.email))) return false;
    const plan = (await planByTier(trx, 'free'))!;
    const tenant = await insertTenant(trx, signup.organisation, plan.id, at);
    await insertUser(trx, tenant.id, signup.email, at, { role: 'owner', passwordHash: signup.password_hash });
    return true;
  });
}

/** An invitation by mail, when e-mail is on: the link with its token in the fragment. */
export async function mailInvitation(deps: ServiceDeps, invite: { email: string; path: string; tenantName: string }) {
  if (!deps.config.SMTP_URL) return false;
  const at = isoNow(deps);
  await accountMail(
    deps.db,
    invite.email,
    {
      kind: 'invite',
      subject: `Uitnodiging voor ${invite.tenantName.slice(0, 100)}`,
      lines: [
        'U bent uitgenodigd voor het beveiligingsdashboard. Kies met de link een wachtwoord; hij werkt 7 dagen en één keer.',
      ],
      link: { label: 'Uitnodiging aannemen', url: publicLink(deps, invite.path) },
    },
    `invite:${randomUUID()}`,
    at,
  );
  return true;
}

/** Sign-up as the service is configured: with e-mail on by a confirmation link, without it logged in at once as before. */
export async function register(deps: ServiceDeps, input: { email: string; password: string; organisation: string }) {
  if (deps.config.SMTP_URL) return { ...(await signUpByMail(deps, input)), session: null };
  return { ok: true as const, message: null, session: (await signUp(deps, input)).session };
}
