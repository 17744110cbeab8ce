import { listApiKeysOfUser, revokeApiKey } from '../db/api-keys.ts';
import { issueKey, keyCaps } from './key-issuance.ts';
import type { DB } from '../db/database.ts';
import { attemptsOfWebhook } from '../db/outbox.ts';
import { enableWebhook as enableWebhookRow, listWebhooks, webhookExists } from '../db/webhooks.ts';
import { findFinding } from '../db/findings.ts';
import { acceptanceOf, changeFindingStatus, extendAcceptance, type StatusInput } from './finding-status.ts';
import { findFeatureFlag, updateFeatureFlag } from '../db/plans-and-flags.ts';
import { findSiteAnyTenant, listSites } from '../db/sites.ts';
import { addSite } from './sites.ts';
import { jobsOfSite } from '../db/schedules.ts';
import { systemActor } from '../domain/actor.ts';
import { DomainError } from '../domain/errors.ts';
import { isoNow, nowOf, type ServiceDeps } from './deps.ts';
import { updateSite } from './schedules.ts';
import { mailerFor } from '../infra/mailer.ts';
import { renderMail } from './notifications/message.ts';
import { findSuggestion } from '../db/suggestions.ts';
import { recordReview } from './review.ts';
import { applyBlock } from './team.ts';
import {
  findTenant,
  findUser,
  findUserByEmail,
  insertTenant,
  insertUser,
  listTenants,
  listUsersOfTenant,
  planByTier,
  suspendTenant,
} from '../db/tenancy.ts';
import { siteView, webhookView } from './views.ts';
import {
  DEFAULT_RATE_LIMIT,
  type FeatureFlag,
  type Permission,
  type PlanTier,
  type ReviewStatus,
  type Role,
} from '../domain/vocabulary.ts';
import { randomBytes } from 'node:crypto';
import { hashPassword } from '../infra/passwords.ts';
import {
  auditOfTenant,
  claimsOfTenant,
  deleteClaims,
  insertAudit,
  markClaimsDue,
  putClaim,
  setTenantToken,
} from '../db/claims.ts';
import { claimCovers } from '../scanner/index.ts';
import {
  hostOfUrl,
  newToken,
  verificationOf,
  verificationsOfTenant,
  verifySite,
  withSiteEvents,
  type SiteVerification,
} from './verification.ts';

/** An operator mistake: shown as is, exit code 1. */
export class AdminError extends Error {}

/** The operator's tools, acting as the platform (a system actor in the tenant they touch). */
const OPERATOR = 'admin-cli';
const asSystem = (tenantId: string) => systemActor(tenantId, OPERATOR);

/**
 * An operator command takes no actor: whoever runs the CLI on the host acts as the platform, and the
 * commands that reach a tenant's services name that system actor themselves (`asSystem`).
 */
type OperatorCommand<I, R> = (deps: ServiceDeps, input: I) => Promise<R>;

async function tenantOrFail(db: DB, tenantId: string) {
  if (!(await findTenant(db, tenantId))) throw new AdminError(`tenant ${tenantId} not found`);
}

export const createTenant: OperatorCommand<
  { name: string; plan: PlanTier },
  { id: string; name: string; plan: string }
> = async (deps, input) => {
  const plan = (await planByTier(deps.db, input.plan))!;
  const tenant = await insertTenant(deps.db, input.name, plan.id, isoNow(deps));
  return { ...tenant, plan: plan.tier };
};

export const suspend: OperatorCommand<{ tenant_id: string }, { id: string; suspended: true }> = async (
  deps,
  { tenant_id },
) => {
  await tenantOrFail(deps.db, tenant_id);
  await suspendTenant(deps.db, tenant_id, isoNow(deps));
  return { id: tenant_id, suspended: true };
};

/**
 * A user of a tenant. With `login`, the user gets a generated password, shown this once, to log in
 * to the dashboard; `staff` marks the service's own team.
 */
export const createUser: OperatorCommand<
  { tenant_id: string; email: string; role?: Role; staff?: boolean; login?: boolean },
  Record<string, unknown> & { id: string }
> = async (deps, input) => {
  const { db } = deps;
  await tenantOrFail(db, input.tenant_id);
  if (await findUserByEmail(db, input.email)) throw new AdminError(`a user with email ${input.email} already exists`);
  const password = input.login || input.staff ? randomBytes(18).toString('base64url') : null;
  const user = await insertUser(db, input.tenant_id, input.email, isoNow(deps), {
    role: input.role ?? 'owner',
    isStaff: input.staff,
    passwordHash: password ? await hashPassword(password) : null,
  });
  const { password_hash: _hash, ...shown } = user;
  return password ? { ...shown, initial_password: password } : shown;
};

export const tenants: OperatorCommand<Record<string, never>, Awaited<ReturnType<typeof listTenants>>> = ({ db }) =>
  listTenants(db);

export const usersOfTenant: OperatorCommand<
  { tenant_id: string },
  Awaited<ReturnType<typeof listUsersOfTenant>>
> = async ({ db }, { tenant_id }) => {
  await tenantOrFail(db, tenant_id);
  return listUsersOfTenant(db, tenant_id);
};

/** The tenant's sites with their latest scan, as the API shows them. */
export const sitesOfTenant: OperatorCommand<{ tenant_id: string }, ReturnType<typeof siteView>[]> = async (
  deps,
  { tenant_id },
) => {
  await tenantOrFail(deps.db, tenant_id);
  const { rows } = await listSites(deps.db, tenant_id, {});
  const verification = await verificationsOfTenant(deps, tenant_id);
  return rows.map((row) => siteView(row, verification(row.url)));
};

export const block: OperatorCommand<{ user_id: string }, { id: string; blocked: true }> = async (deps, { user_id }) => {
  if (!(await findUser(deps.db, user_id))) throw new AdminError(`user ${user_id} not found`);
  await applyBlock(deps.db, user_id, true, isoNow(deps));
  return { id: user_id, blocked: true };
};

/** A service's refusal (Dutch, as the dashboard shows it) becomes the operator's error. */
async function asOperator<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw error instanceof DomainError ? new AdminError(error.message) : error;
  }
}

/** Creates a key through the dashboard's service, within the configured caps. */
export const createKey: OperatorCommand<
  { user_id: string; name: string; permissions: readonly Permission[]; rate_limit?: number },
  Record<string, unknown> & { key: string; key_id: string }
> = async (deps, input) => {
  if (!(await findUser(deps.db, input.user_id))) throw new AdminError(`user ${input.user_id} not found`);
  const permissions = [...new Set(input.permissions)];
  const { created_at: _created, ...created } = await asOperator(
    issueKey(
      deps.db,
      input.user_id,
      { name: input.name, permissions, rateLimit: input.rate_limit ?? DEFAULT_RATE_LIMIT },
      keyCaps(deps.config),
      nowOf(deps),
    ),
  );
  return created;
};

export const revokeKey: OperatorCommand<{ key_id: string }, { key_id: string; revoked: true }> = async (
  deps,
  { key_id },
) => {
  if (!(await revokeApiKey(deps.db, key_id, isoNow(deps)))) throw new AdminError(`active key ${key_id} not found`);
  return { key_id, revoked: true };
};

export const listKeys: OperatorCommand<{ user_id: string }, Array<Record<string, unknown>>> = async (
  { db },
  { user_id },
) => {
  if (!(await findUser(db, user_id))) throw new AdminError(`user ${user_id} not found`);
  return (await listApiKeysOfUser(db, user_id)).map((k) => ({
    key_id: k.id,
    name: k.name,
    prefix: k.key_prefix,
    permissions: JSON.parse(k.permissions) as string[],
    rate_limit: k.rate_limit,
    created_at: k.created_at,
    revoked_at: k.revoked_at,
  }));
};

/** Adds a site through the dashboard's service, acting as the platform. */
export const createSite: OperatorCommand<
  { tenant_id: string; name: string; url: string },
  Awaited<ReturnType<typeof addSite>>
> = async (deps, input) => {
  await tenantOrFail(deps.db, input.tenant_id);
  return asOperator(addSite(deps, asSystem(input.tenant_id), { name: input.name, url: input.url }));
};

/** Records the team's review through the staff's service; suggestion_reviewed goes out with it. */
export const review: OperatorCommand<
  { suggestion_id: string; status: ReviewStatus; notes?: string },
  Awaited<ReturnType<typeof recordReview>>
> = async (deps, input) => {
  if (!(await findSuggestion(deps.db, input.suggestion_id)))
    throw new AdminError(`suggestion ${input.suggestion_id} not found`);
  return recordReview(deps.db, input.suggestion_id, input.status, input.notes ?? null, isoNow(deps));
};

/** An operator's status change, through the dashboard's service, recorded as done by the admin CLI. */
export const setStatusOfFinding: OperatorCommand<StatusInput, unknown> = async (deps, input) => {
  const finding = await findFinding(deps.db, input.finding_id);
  if (!finding) throw new AdminError(`finding ${input.finding_id} not found`);
  const { finding: changed } = await asOperator(changeFindingStatus(deps, asSystem(finding.tenant_id), input));
  return { ...changed, acceptance: await acceptanceOf(deps, changed.id) };
};

/** A new acceptance with a new end for an accepted risk, recorded as done by the admin CLI. */
export const extendAcceptanceOfFinding: OperatorCommand<Parameters<typeof extendAcceptance>[2], unknown> = async (
  deps,
  input,
) => {
  const finding = await findFinding(deps.db, input.finding_id);
  if (!finding) throw new AdminError(`finding ${input.finding_id} not found`);
  const { finding: changed } = await asOperator(extendAcceptance(deps, asSystem(finding.tenant_id), input));
  return { ...changed, acceptance: await acceptanceOf(deps, changed.id) };
};

export const setFlag: OperatorCommand<
  { key: FeatureFlag; enabled?: boolean; rollout?: number },
  Record<string, unknown>
> = async ({ db }, input) => {
  const changes: { enabled?: boolean; rollout_percentage?: number } = {};
  if (input.enabled !== undefined) changes.enabled = input.enabled;
  if (input.rollout !== undefined) changes.rollout_percentage = input.rollout;
  await updateFeatureFlag(db, input.key, changes);
  const flag = (await findFeatureFlag(db, input.key))!;
  return { ...flag, enabled: flag.enabled === 1 };
};

/** Re-enables a webhook (after 410 Gone or too many failures); its failure count starts again at 0. */
export const enableWebhook: OperatorCommand<{ webhook_id: string }, { id: string; enabled: true }> = async (
  { db },
  { webhook_id },
) => {
  if (!(await enableWebhookRow(db, webhook_id))) throw new AdminError(`webhook ${webhook_id} not found`);
  return { id: webhook_id, enabled: true };
};

/** Webhooks of a tenant for operators: never the secret. */
export const webhooksOfTenant: OperatorCommand<{ tenant_id: string }, Array<Record<string, unknown>>> = async (
  { db },
  { tenant_id },
) => {
  await tenantOrFail(db, tenant_id);
  return (await listWebhooks(db, tenant_id)).map((row) => ({ ...webhookView(row), tenant_id: row.tenant_id }));
};

export const deliveriesOfWebhook: OperatorCommand<
  { webhook_id: string },
  Awaited<ReturnType<typeof attemptsOfWebhook>>
> = async ({ db }, { webhook_id }) => {
  if (!(await webhookExists(db, webhook_id))) throw new AdminError(`webhook ${webhook_id} not found`);
  return attemptsOfWebhook(db, webhook_id);
};

/** Sets a site's scan schedule, mail domain (null: off) or crawl through the same service as the API, acting as the platform. */
export const updateSiteSettings: OperatorCommand<
  {
    site_id: string;
    scan_interval_hours?: number | null;
    mail_domain?: string | null;
    max_pages?: number;
    include_paths?: string[];
    exclude_paths?: string[];
  },
  unknown
> = async (deps, input) => {
  const site = await findSiteAnyTenant(deps.db, input.site_id);
  if (!site) throw new AdminError(`site ${input.site_id} not found`);
  return asOperator(updateSite(deps, asSystem(site.tenant_id), input));
};

/** The latest scheduled runs of a site, with why one was skipped or failed. */
export const scanJobsOfSite: OperatorCommand<{ site_id: string }, Awaited<ReturnType<typeof jobsOfSite>>> = async (
  { db },
  { site_id },
) => {
  if (!(await findSiteAnyTenant(db, site_id))) throw new AdminError(`site ${site_id} not found`);
  return jobsOfSite(db, site_id);
};

/** The site an operator names, or an operator's error. */
async function siteOrFail(db: DB, siteId: string) {
  const site = await findSiteAnyTenant(db, siteId);
  if (!site) throw new AdminError(`site ${siteId} not found`);
  return site;
}

/**
 * Checks a site's proof of control now, as POST /sites/{site_id}/verify does (without its rate
 * limit: the operator is on the host), acting as the platform.
 */
export const checkSiteProof: OperatorCommand<{ site_id: string }, SiteVerification> = async (deps, { site_id }) => {
  const site = await siteOrFail(deps.db, site_id);
  return asOperator(verifySite({ ...deps, counters: undefined }, asSystem(site.tenant_id), { site_id }));
};

/**
 * An operator vouches for a site (its own demo, a customer's contract on paper): intrusive tests run
 * on its host without the tenant's proof, until `until` when given. Audited: who, why and when.
 */
export const vouchForSite: OperatorCommand<
  { site_id: string; operator: string; reason: string; until?: string },
  SiteVerification
> = async (deps, input) => {
  const site = await siteOrFail(deps.db, input.site_id);
  const now = isoNow(deps);
  if (input.until !== undefined && Date.parse(input.until) <= nowOf(deps))
    throw new AdminError('--until must lie in the future');
  await withSiteEvents(deps, site.tenant_id, async ({ db }) => {
    await putClaim(db, {
      tenant_id: site.tenant_id,
      method: 'operator',
      name: hostOfUrl(site.url),
      origin: new URL(site.url).origin,
      status: 'verified',
      verified_at: now,
      confirmed_at: now,
      checked_at: now,
      lost_at: null,
      reason: input.reason,
      until: input.until ?? null,
    });
    await insertAudit(db, {
      at: now,
      operator: input.operator,
      action: 'site_verify',
      tenant_id: site.tenant_id,
      site_id: site.id,
      reason: input.reason,
      until: input.until ?? null,
    });
  });
  return verificationOf(await claimsOfTenant(deps.db, site.tenant_id), site.url, nowOf(deps));
};

/** Makes a site unverified: every claim of its tenant that covers its host goes (audited). */
export const unverifySite: OperatorCommand<{ site_id: string; operator: string }, SiteVerification> = async (
  deps,
  input,
) => {
  const site = await siteOrFail(deps.db, input.site_id);
  await withSiteEvents(deps, site.tenant_id, async ({ db }) => {
    const claims = await claimsOfTenant(db, site.tenant_id);
    const host = hostOfUrl(site.url);
    await deleteClaims(
      db,
      site.tenant_id,
      claims.filter((c) => claimCovers(c, host)).map((c) => c.id),
    );
    await insertAudit(db, {
      at: isoNow(deps),
      operator: input.operator,
      action: 'site_unverify',
      tenant_id: site.tenant_id,
      site_id: site.id,
      reason: null,
      until: null,
    });
  });
  return verificationOf(await claimsOfTenant(deps.db, site.tenant_id), site.url, nowOf(deps));
};

/**
 * A new verification token for a tenant (audited). Claims stay until checked, and every one is due
 * now: the next intrusive scan looks for the new token, so the old one verifies nothing.
 */
export const rotateTenantToken: OperatorCommand<
  { tenant_id: string; operator: string },
  { tenant_id: string; rotated: true }
> = async (deps, input) => {
  await tenantOrFail(deps.db, input.tenant_id);
  await deps.db.transaction().execute(async (db) => {
    await setTenantToken(db, input.tenant_id, newToken(), false);
    await markClaimsDue(db, input.tenant_id);
    await insertAudit(db, {
      at: isoNow(deps),
      operator: input.operator,
      action: 'token_rotate',
      tenant_id: input.tenant_id,
      site_id: null,
      reason: null,
      until: null,
    });
  });
  return { tenant_id: input.tenant_id, rotated: true };
};

/** The operators' audit trail of a tenant's proof of control. */
export const auditTrailOfTenant: OperatorCommand<
  { tenant_id: string },
  Awaited<ReturnType<typeof auditOfTenant>>
> = async ({ db }, { tenant_id }) => {
  await tenantOrFail(db, tenant_id);
  return auditOfTenant(db, tenant_id);
};

/** One mail through SMTP_URL, sent at once: the relay's acceptance is the answer (exit 0 with its message id). */
export const sendTestMail: OperatorCommand<{ to: string }, { message_id: string }> = async ({ config }, { to }) => {
  const mailer = mailerFor(config);
  if (!mailer) throw new AdminError('SMTP_URL is not set: e-mail is off');
  try {
    const mail = renderMail(
      {
        kind: 'test',
        subject: 'Testmail van de beveiligingsscanner',
        lines: ['Deze mail bevestigt dat de dienst via SMTP_URL kan mailen.'],
      },
      null,
    );
    const { messageId } = await mailer.send({ from: config.SMTP_FROM, to, ...mail });
    return { message_id: messageId };
  } catch (error) {
    throw new AdminError(`the relay refused the mail: ${(error as Error).message}`);
  } finally {
    mailer.close();
  }
};
