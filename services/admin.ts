import { listApiKeysOfUser, revokeApiKey } from '../db/api-keys.ts';
import { issueKey, keyCaps, type KeyCaps } from './key-issuance.ts';
import type { DB } from '../db/database.ts';
import { attemptsOfWebhook } from '../db/outbox.ts';
import { enableWebhook as enableWebhookRow, listWebhooks, webhookExists } from '../db/webhooks.ts';
import { findFinding } from '../db/findings.ts';
import { changeFindingStatus } from './finding-status.ts';
import { findFeatureFlag, updateFeatureFlag } from '../db/plans-and-flags.ts';
import { findSiteAnyTenant, listSites } from '../db/sites.ts';
import { addSite } from './sites.ts';
import { jobsOfSite } from '../db/schedules.ts';
import { systemActor } from '../domain/actor.ts';
import { DomainError } from '../domain/errors.ts';
import type { ServiceDeps } from './deps.ts';
import { setScanSchedule } from './schedules.ts';
import { findSuggestion } from '../db/suggestions.ts';
import { recordReview } from './review.ts';
import { applyBlock } from './team.ts';
import { findTenant, findUser, findUserByEmail, insertTenant, insertUser, listTenants, listUsersOfTenant, planByTier, suspendTenant } from '../db/tenancy.ts';
import { loadConfig } from './config.ts';
import { siteView, webhookView } from './views.ts';
import { DEFAULT_RATE_LIMIT, FEATURE_FLAGS, FINDING_STATUSES, PERMISSIONS, PLAN_TIERS, REVIEW_STATUSES, ROLES, SCAN_INTERVAL_HOURS, type Permission } from '../domain/vocabulary.ts';
import { randomBytes } from 'node:crypto';
import { hashPassword } from './passwords.ts';

/** An operator mistake: shown as is, exit code 1. */
export class AdminError extends Error {}

const oneOf = <T extends string>(value: string, allowed: readonly T[], what: string): T => {
  if (!allowed.includes(value as T)) throw new AdminError(`${what} must be one of: ${allowed.join(', ')} (got "${value}")`);
  return value as T;
};

export async function createTenant(db: DB, name: string, tier = 'free') {
  const plan = await planByTier(db, oneOf(tier, PLAN_TIERS, 'plan'));
  const tenant = await insertTenant(db, name, plan!.id);
  return { ...tenant, plan: plan!.tier };
}

export async function suspend(db: DB, tenantId: string) {
  if (!(await findTenant(db, tenantId))) throw new AdminError(`tenant ${tenantId} not found`);
  await suspendTenant(db, tenantId);
  return { id: tenantId, suspended: true };
}

/**
 * A user of a tenant. With `login`, the user gets a generated password, shown this once, to log in
 * to the dashboard; `staff` marks the service's own team.
 */
export async function createUser(db: DB, tenantId: string, email: string, options: { role?: string; staff?: boolean; login?: boolean } = {}) {
  if (!(await findTenant(db, tenantId))) throw new AdminError(`tenant ${tenantId} not found`);
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new AdminError(`invalid email address "${email}"`);
  if (await findUserByEmail(db, email)) throw new AdminError(`a user with email ${email} already exists`);
  const role = options.role === undefined ? 'owner' : oneOf(options.role, ROLES, 'role');
  const password = options.login || options.staff ? randomBytes(18).toString('base64url') : null;
  const user = await insertUser(db, tenantId, email, { role, isStaff: options.staff, passwordHash: password ? await hashPassword(password) : null });
  const { password_hash: _hash, ...shown } = user;
  return password ? { ...shown, initial_password: password } : shown;
}

export const tenants = (db: DB) => listTenants(db);

export async function usersOfTenant(db: DB, tenantId: string) {
  if (!(await findTenant(db, tenantId))) throw new AdminError(`tenant ${tenantId} not found`);
  return listUsersOfTenant(db, tenantId);
}

/** The tenant's sites with their latest scan, as the API shows them. */
export async function sitesOfTenant(db: DB, tenantId: string) {
  if (!(await findTenant(db, tenantId))) throw new AdminError(`tenant ${tenantId} not found`);
  const { rows } = await listSites(db, tenantId, {});
  return rows.map(siteView);
}

export async function block(db: DB, userId: string) {
  if (!(await findUser(db, userId))) throw new AdminError(`user ${userId} not found`);
  await applyBlock(db, userId, true);
  return { id: userId, blocked: true };
}

export interface KeyRequest {
  userId: string;
  name: string;
  permissions: string[];
  rateLimit?: number;
}

/** A service's refusal (Dutch, as the dashboard shows it) becomes the operator's error. */
async function asOperator<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw error instanceof DomainError ? new AdminError(error.message) : error;
  }
}

/** Creates a key through the dashboard's service; the flags are checked here, the rules there. */
export async function createKey(db: DB, request: KeyRequest, caps: KeyCaps = keyCaps(loadConfig({}))) {
  if (!(await findUser(db, request.userId))) throw new AdminError(`user ${request.userId} not found`);
  if (!request.name.trim()) throw new AdminError('--name is required');
  const permissions = [...new Set(request.permissions.map((p) => oneOf(p, PERMISSIONS, 'permission')))] as Permission[];
  if (permissions.length === 0) throw new AdminError(`--permissions needs at least one of: ${PERMISSIONS.join(', ')}`);
  const rateLimit = request.rateLimit ?? DEFAULT_RATE_LIMIT;
  if (!Number.isInteger(rateLimit) || rateLimit < 1 || rateLimit > 100_000) throw new AdminError('--rate-limit must be an integer from 1 to 100000');
  const { created_at: _created, ...created } = await asOperator(issueKey(db, request.userId, { name: request.name, permissions, rateLimit }, caps));
  return created;
}

export async function revokeKey(db: DB, keyId: string) {
  if (!(await revokeApiKey(db, keyId))) throw new AdminError(`active key ${keyId} not found`);
  return { key_id: keyId, revoked: true };
}

export async function listKeys(db: DB, userId: string) {
  if (!(await findUser(db, userId))) throw new AdminError(`user ${userId} not found`);
  return (await listApiKeysOfUser(db, userId)).map((k) => ({
    key_id: k.id,
    name: k.name,
    prefix: k.key_prefix,
    permissions: JSON.parse(k.permissions) as string[],
    rate_limit: k.rate_limit,
    created_at: k.created_at,
    revoked_at: k.revoked_at,
  }));
}

/** Adds a site through the dashboard's service, acting as the platform. */
export async function createSite(db: DB, tenantId: string, name: string, url: string) {
  if (!(await findTenant(db, tenantId))) throw new AdminError(`tenant ${tenantId} not found`);
  return asOperator(addSite({ db }, systemActor(tenantId, 'admin-cli'), { name, url }));
}

/** Records the team's review through the staff's service; suggestion_reviewed goes out with it. */
export async function review(db: DB, suggestionId: string, status: string, notes: string | undefined) {
  if (!(await findSuggestion(db, suggestionId))) throw new AdminError(`suggestion ${suggestionId} not found`);
  return recordReview(db, suggestionId, oneOf(status, REVIEW_STATUSES, 'status'), notes ?? null);
}

/** An operator's status change, through the dashboard's service, recorded as done by the admin CLI. */
export async function setStatusOfFinding(db: DB, findingId: string, status: string, reason?: string) {
  const finding = await findFinding(db, findingId);
  if (!finding) throw new AdminError(`finding ${findingId} not found`);
  const newStatus = oneOf(status, FINDING_STATUSES, 'status');
  const { finding: changed } = await asOperator(changeFindingStatus({ db }, systemActor(finding.tenant_id, 'admin-cli'), { findingId, status: newStatus, reason }));
  return changed;
}

export async function setFlag(db: DB, name: string, enabled: string | undefined, rollout: string | undefined) {
  const key = oneOf(name, FEATURE_FLAGS, 'flag');
  const changes: { enabled?: boolean; rollout_percentage?: number } = {};
  if (enabled !== undefined) changes.enabled = oneOf(enabled, ['true', 'false'], '--enabled') === 'true';
  if (rollout !== undefined) {
    const value = Number(rollout);
    if (!Number.isInteger(value) || value < 0 || value > 100) throw new AdminError('--rollout must be an integer from 0 to 100');
    changes.rollout_percentage = value;
  }
  await updateFeatureFlag(db, key, changes);
  const flag = (await findFeatureFlag(db, key))!;
  return { ...flag, enabled: flag.enabled === 1 };
}


/** Re-enables a webhook (after 410 Gone or too many failures); its failure count starts again at 0. */
export async function enableWebhook(db: DB, webhookId: string) {
  if (!(await enableWebhookRow(db, webhookId))) throw new AdminError(`webhook ${webhookId} not found`);
  return { id: webhookId, enabled: true };
}

/** Webhooks of a tenant for operators: never the secret. */
export async function webhooksOfTenant(db: DB, tenantId: string) {
  if (!(await findTenant(db, tenantId))) throw new AdminError(`tenant ${tenantId} not found`);
  return (await listWebhooks(db, tenantId)).map((row) => ({ ...webhookView(row), tenant_id: row.tenant_id }));
}

export async function deliveriesOfWebhook(db: DB, webhookId: string) {
  if (!(await webhookExists(db, webhookId))) throw new AdminError(`webhook ${webhookId} not found`);
  return attemptsOfWebhook(db, webhookId);
}

/** "24h" as 24, "off" as null: the operator's way of writing a scan interval. */
function parseEvery(every: string): number | null {
  if (every === 'off') return null;
  const match = /^(\d+)h$/.exec(every);
  if (!match) throw new AdminError(`--every must be a number of hours such as 24h, or off (got "${every}")`);
  return Number(match[1]);
}

/** Sets a site's scan schedule through the same service as the API, acting as the platform. */
export async function scheduleSite(deps: ServiceDeps, siteId: string, every: string) {
  const site = await findSiteAnyTenant(deps.db, siteId);
  if (!site) throw new AdminError(`site ${siteId} not found`);
  const hours = parseEvery(every);
  if (hours !== null && (hours < SCAN_INTERVAL_HOURS.min || hours > SCAN_INTERVAL_HOURS.max)) {
    throw new AdminError(`--every must be from ${SCAN_INTERVAL_HOURS.min}h to ${SCAN_INTERVAL_HOURS.max}h, or off`);
  }
  return asOperator(setScanSchedule(deps, systemActor(site.tenant_id, 'admin-cli'), siteId, hours));
}

/** The latest scheduled runs of a site, with why one was skipped or failed. */
export async function scanJobsOfSite(db: DB, siteId: string) {
  if (!(await findSiteAnyTenant(db, siteId))) throw new AdminError(`site ${siteId} not found`);
  return jobsOfSite(db, siteId);
}

