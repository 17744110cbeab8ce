import type { Insertable, Selectable } from 'kysely';
import type {
  NotificationCategory,
  NotifyDeliveryStatus,
  Role,
  Severity,
  UnsubscribeCategory,
} from '../domain/vocabulary.ts';
import type { DB } from './database.ts';
import { claimDue } from './leases.ts';
import { uuidv7 } from './ids.ts';
import type {
  NotificationChannelsTable,
  NotificationRecipientsTable,
  NotificationRulesTable,
  NotificationsTable,
} from './schema.ts';

export type ChannelRow = Selectable<NotificationChannelsTable>;
export type RecipientRow = Selectable<NotificationRecipientsTable>;
export type RuleRow = Selectable<NotificationRulesTable>;
export type NotificationRow = Selectable<NotificationsTable>;

// Channels and their e-mail recipients.

export async function insertChannel(db: DB, row: Insertable<NotificationChannelsTable>): Promise<void> {
  await db.insertInto('notification_channels').values(row).execute();
}

export function channelsOfTenant(db: DB, tenantId: string) {
  return db
    .selectFrom('notification_channels')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function findChannel(db: DB, tenantId: string, id: string) {
  return db
    .selectFrom('notification_channels')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function updateChannel(
  db: DB,
  id: string,
  changes: Partial<
    Pick<ChannelRow, 'name' | 'target' | 'target_hint' | 'enabled' | 'failure_count' | 'disabled_reason'>
  >,
): Promise<void> {
  if (Object.keys(changes).length > 0)
    await db.updateTable('notification_channels').set(changes).where('id', '=', id).execute();
}

export async function deleteChannel(db: DB, tenantId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('notification_channels')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  await db.deleteFrom('notification_recipients').where('channel_id', '=', id).execute();
  return Number(result.numDeletedRows) > 0;
}

/** Every channel's stored target, for a key rotation. */
export function allChannelTargets(db: DB) {
  return db.selectFrom('notification_channels').select(['id', 'target']).execute();
}

export function recipientsOfChannels(db: DB, channelIds: string[]) {
  if (channelIds.length === 0) return Promise.resolve([] as RecipientRow[]);
  return db
    .selectFrom('notification_recipients')
    .selectAll()
    .where('channel_id', 'in', channelIds)
    .orderBy('id')
    .execute();
}

export async function insertRecipients(db: DB, rows: Array<Insertable<NotificationRecipientsTable>>): Promise<void> {
  if (rows.length > 0) await db.insertInto('notification_recipients').values(rows).execute();
}

export async function deleteRecipients(db: DB, channelId: string, keep: string[]): Promise<void> {
  let query = db.deleteFrom('notification_recipients').where('channel_id', '=', channelId);
  if (keep.length > 0) query = query.where('address', 'not in', keep);
  await query.execute();
}

/** Confirms the recipient whose token this is; null when there is none (used, or never issued). */
export async function confirmRecipient(db: DB, tokenHash: string, now: string): Promise<RecipientRow | null> {
  const row = await db
    .selectFrom('notification_recipients')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row) return null;
  await db
    .updateTable('notification_recipients')
    .set({ confirmed_at: now, token_hash: null })
    .where('id', '=', row.id)
    .execute();
  return { ...row, confirmed_at: now, token_hash: null };
}

/** The e-mail addresses of the tenant's unblocked members with these roles. */
export async function memberAddresses(db: DB, tenantId: string, roles: Role[]): Promise<string[]> {
  if (roles.length === 0) return [];
  const rows = await db
    .selectFrom('users')
    .select('email')
    .where('tenant_id', '=', tenantId)
    .where('role', 'in', roles)
    .where('blocked_at', 'is', null)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => r.email.toLowerCase());
}

/** Whether an address is a member's (a member's own address needs no confirmation). */
export async function isMemberAddress(db: DB, tenantId: string, address: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', address.toLowerCase()))
    .executeTakeFirst();
  return row !== undefined;
}

// Rules.

export async function insertRule(db: DB, row: Insertable<NotificationRulesTable>): Promise<void> {
  await db.insertInto('notification_rules').values(row).execute();
}

export function rulesOfTenant(db: DB, tenantId: string) {
  return db
    .selectFrom('notification_rules')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function findRule(db: DB, tenantId: string, id: string) {
  return db
    .selectFrom('notification_rules')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function updateRule(db: DB, id: string, changes: Partial<Insertable<NotificationRulesTable>>) {
  if (Object.keys(changes).length > 0)
    await db.updateTable('notification_rules').set(changes).where('id', '=', id).execute();
}

export async function deleteRule(db: DB, tenantId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('notification_rules')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Every digest rule, and every rule with a rest digest: the digest sweep looks at each. */
export function digestRules(db: DB) {
  return db
    .selectFrom('notification_rules')
    .selectAll()
    .where((eb) => eb.or([eb('mode', '!=', 'immediate'), eb('rest', 'is not', null)]))
    .execute();
}

export async function markDigestSent(db: DB, ruleId: string, part: 'digest' | 'rest', at: string): Promise<void> {
  await db
    .updateTable('notification_rules')
    .set(part === 'digest' ? { last_digest_at: at } : { last_rest_digest_at: at })
    .where('id', '=', ruleId)
    .execute();
}

// Digest items.

export async function insertDigestItems(
  db: DB,
  rows: Array<{ tenant_id: string; rule_id: string; part: 'digest' | 'rest'; item: unknown; created_at: string }>,
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('notification_digest_items')
    .values(rows.map((row) => ({ ...row, id: uuidv7(), item: JSON.stringify(row.item), sent_at: null })))
    .execute();
}

export function unsentDigestItems(db: DB, ruleId: string, part: 'digest' | 'rest') {
  return db
    .selectFrom('notification_digest_items')
    .selectAll()
    .where('rule_id', '=', ruleId)
    .where('part', '=', part)
    .where('sent_at', 'is', null)
    .orderBy('created_at')
    .execute();
}

export async function markItemsSent(db: DB, ids: string[], at: string): Promise<void> {
  if (ids.length > 0)
    await db.updateTable('notification_digest_items').set({ sent_at: at }).where('id', 'in', ids).execute();
}

// The outbox.

export interface PlannedNotification {
  tenant_id: string | null;
  rule_id: string | null;
  channel_id: string | null;
  address: string | null;
  category: NotificationCategory;
  dedupe_key: string;
  body: unknown;
  status?: NotifyDeliveryStatus;
  /** Why a suppressed message is not sent. */
  error?: string;
  next_attempt_at: string;
}

/**
 * Writes messages to the outbox; a dedupe key already there is left as it is, so planning twice (a
 * retried transaction, a second worker) never sends twice. Call it in the change's transaction.
 */
export async function enqueueNotifications(db: DB, planned: PlannedNotification[], now: string): Promise<void> {
  for (const row of planned)
    await db
      .insertInto('notifications')
      .values({
        id: uuidv7(),
        tenant_id: row.tenant_id,
        rule_id: row.rule_id,
        channel_id: row.channel_id,
        address: row.address,
        category: row.category,
        dedupe_key: row.dedupe_key,
        body: JSON.stringify(row.body),
        status: row.status ?? 'pending',
        attempts: 0,
        next_attempt_at: row.next_attempt_at,
        claimed_by: null,
        last_error: row.error ?? null,
        created_at: now,
        sent_at: null,
      })
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .execute();
}

/** A pending message for the same rule and recipient that waits (quiet hours), to fold a new one into. */
export function waitingNotification(db: DB, dedupeKey: string) {
  return db
    .selectFrom('notifications')
    .selectAll()
    .where('dedupe_key', '=', dedupeKey)
    .where('status', '=', 'pending')
    .where('claimed_by', 'is', null)
    .executeTakeFirst();
}

export async function replaceBody(db: DB, id: string, body: unknown): Promise<void> {
  await db
    .updateTable('notifications')
    .set({ body: JSON.stringify(body) })
    .where('id', '=', id)
    .execute();
}

export function dueNotifications(db: DB, now: string, limit: number, skip: string[]) {
  let query = db
    .selectFrom('notifications')
    .selectAll()
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now);
  if (skip.length > 0) query = query.where('id', 'not in', skip);
  return query.orderBy('next_attempt_at').limit(limit).execute();
}

/** Claims due rows for a worker with a lease (db/leases.ts). */
export const claimNotifications = (db: DB, ids: string[], worker: string, now: string, leaseUntil: string) =>
  claimDue(db, 'notifications', ids, worker, now, leaseUntil);

/** Claims one pending message no worker holds, whenever it is due (a test send, made at once). */
export async function claimOne(db: DB, id: string, worker: string, leaseUntil: string): Promise<boolean> {
  const result = await db
    .updateTable('notifications')
    .set({ next_attempt_at: leaseUntil, claimed_by: worker })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('claimed_by', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export interface NotificationOutcome {
  id: string;
  status: NotifyDeliveryStatus;
  error: string | null;
  at: string;
  /** When to try again (status pending). */
  nextAttemptAt: string | null;
}

export async function recordNotification(db: DB, outcome: NotificationOutcome): Promise<void> {
  await db
    .updateTable('notifications')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      status: outcome.status,
      last_error: outcome.error,
      next_attempt_at: outcome.nextAttemptAt ?? outcome.at,
      claimed_by: null,
      ...(outcome.status === 'sent' ? { sent_at: outcome.at } : {}),
    }))
    .where('id', '=', outcome.id)
    .execute();
}

/** Messages a channel sent since a moment (its hourly limit). */
export async function sentSince(db: DB, channelId: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('channel_id', '=', channelId)
    .where('status', '=', 'sent')
    .where('sent_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function deliveriesOfTenant(db: DB, tenantId: string, limit: number) {
  return db
    .selectFrom('notifications')
    .select([
      'id',
      'channel_id',
      'rule_id',
      'address',
      'category',
      'status',
      'attempts',
      'last_error',
      'created_at',
      'sent_at',
    ])
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

// Unsubscribes.

export async function unsubscribe(
  db: DB,
  tenantId: string,
  address: string,
  category: UnsubscribeCategory,
  now: string,
): Promise<void> {
  await db
    .insertInto('notification_unsubscribes')
    .values({ tenant_id: tenantId, address: address.toLowerCase(), category, created_at: now })
    .onConflict((oc) => oc.columns(['tenant_id', 'address', 'category']).doNothing())
    .execute();
}

export async function isUnsubscribed(
  db: DB,
  tenantId: string,
  address: string,
  category: UnsubscribeCategory,
): Promise<boolean> {
  const row = await db
    .selectFrom('notification_unsubscribes')
    .select('address')
    .where('tenant_id', '=', tenantId)
    .where('address', '=', address.toLowerCase())
    .where('category', '=', category)
    .executeTakeFirst();
  return row !== undefined;
}

// Password resets.

export async function insertPasswordReset(
  db: DB,
  row: { token_hash: string; user_id: string; expires_at: string; created_at: string },
): Promise<void> {
  await db
    .insertInto('password_resets')
    .values({ ...row, used_at: null })
    .execute();
}

/**
 * Uses a reset token once: the update that marks it used is the test, so of two requests racing
 * with one token exactly one wins. Answers the user id, or null.
 */
export async function redeemPasswordReset(db: DB, tokenHash: string, now: string): Promise<string | null> {
  const row = await db
    .selectFrom('password_resets')
    .select(['user_id'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row) return null;
  const result = await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? row.user_id : null;
}

/** Reset requests for an address in a window (counted by the planned mails). */
export async function resetRequestsSince(db: DB, address: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('category', '=', 'account')
    .where('address', '=', address.toLowerCase())
    .where('dedupe_key', 'like', 'reset-request:%')
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// Sign-ups waiting for their address.

export async function insertSignupConfirmation(
  db: DB,
  row: {
    token_hash: string;
    email: string;
    password_hash: string;
    organisation: string;
    expires_at: string;
    created_at: string;
  },
): Promise<void> {
  await db
    .insertInto('signup_confirmations')
    .values({ ...row, used_at: null })
    .execute();
}

/** Uses a sign-up confirmation once (the update is the test); its sign-up, or null. */
export async function redeemSignupConfirmation(db: DB, tokenHash: string, now: string) {
  const row = await db
    .selectFrom('signup_confirmations')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row) return null;
  const result = await db
    .updateTable('signup_confirmations')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? row : null;
}

// A member's own settings.

export interface Preferences {
  quiet_hours: { from: string; to: string; zone: string } | null;
  mutes: Array<{ site_id: string; until: string }>;
  digest_at: { hour: number; weekday?: number; zone: string } | null;
}

export async function preferencesOf(db: DB, tenantId: string, address: string): Promise<Preferences> {
  const row = await db
    .selectFrom('notification_preferences')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('address', '=', address.toLowerCase())
    .executeTakeFirst();
  return {
    quiet_hours: row?.quiet_hours ? JSON.parse(row.quiet_hours) : null,
    mutes: row ? JSON.parse(row.mutes) : [],
    digest_at: row?.digest_at ? JSON.parse(row.digest_at) : null,
  };
}

export async function storePreferences(db: DB, tenantId: string, address: string, prefs: Preferences, now: string) {
  const values = {
    quiet_hours: prefs.quiet_hours ? JSON.stringify(prefs.quiet_hours) : null,
    mutes: JSON.stringify(prefs.mutes),
    digest_at: prefs.digest_at ? JSON.stringify(prefs.digest_at) : null,
    updated_at: now,
  };
  await db
    .insertInto('notification_preferences')
    .values({ tenant_id: tenantId, address: address.toLowerCase(), ...values })
    .onConflict((oc) => oc.columns(['tenant_id', 'address']).doUpdateSet(values))
    .execute();
}

export async function resubscribe(db: DB, tenantId: string, address: string, category: UnsubscribeCategory) {
  await db
    .deleteFrom('notification_unsubscribes')
    .where('tenant_id', '=', tenantId)
    .where('address', '=', address.toLowerCase())
    .where('category', '=', category)
    .execute();
}

// Look-ups of the worker, the planner and the preview.

export function findNotification(db: DB, id: string) {
  return db.selectFrom('notifications').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export function notificationByKey(db: DB, dedupeKey: string) {
  return db.selectFrom('notifications').selectAll().where('dedupe_key', '=', dedupeKey).executeTakeFirstOrThrow();
}

export function channelById(db: DB, id: string) {
  return db.selectFrom('notification_channels').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The tenant's enabled channels among these ids. */
export function enabledChannels(db: DB, tenantId: string, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([] as Array<Pick<ChannelRow, 'id' | 'kind'>>);
  return db
    .selectFrom('notification_channels')
    .select(['id', 'kind'])
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', ids)
    .where('enabled', '=', 1)
    .execute();
}

/** Other due, unclaimed alerts for the same channel and address as this message (to fold into it). */
export function dueAlertsLike(db: DB, n: Pick<NotificationRow, 'id' | 'channel_id' | 'address'>, at: string) {
  let query = db
    .selectFrom('notifications')
    .selectAll()
    .where('status', '=', 'pending')
    .where('category', '=', 'alerts')
    .where('id', '!=', n.id)
    .where('next_attempt_at', '<=', at)
    .where('claimed_by', 'is', null);
  query = n.channel_id ? query.where('channel_id', '=', n.channel_id) : query.where('channel_id', 'is', null);
  query = n.address ? query.where('address', '=', n.address) : query.where('address', 'is', null);
  return query.execute();
}

/** How often each of these findings regressed since a moment. */
export async function regressionsSince(db: DB, findingIds: string[], since: string): Promise<Map<string, number>> {
  if (findingIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('scan_changes')
    .innerJoin('scans', 'scans.id', 'scan_changes.scan_id')
    .select(['scan_changes.finding_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('scan_changes.finding_id', 'in', findingIds)
    .where('scan_changes.kind', '=', 'regressed')
    .where('scans.scanned_at', '>=', since)
    .groupBy('scan_changes.finding_id')
    .execute();
  return new Map(rows.map((r) => [r.finding_id, Number(r.n)]));
}

/** A site's open and in-progress findings per severity. */
export async function openTotalsOfSite(db: DB, siteId: string): Promise<Record<Severity, number>> {
  const rows = await db
    .selectFrom('findings')
    .select(['severity', (eb) => eb.fn.countAll<number>().as('n')])
    .where('site_id', '=', siteId)
    .where('status', 'in', ['OPEN', 'IN_PROGRESS'])
    .groupBy('severity')
    .execute();
  const totals = { CRITICAL: 0, HIGH: 0, MEDIUM: 0, LOW: 0 };
  for (const row of rows) totals[row.severity] = Number(row.n);
  return totals;
}

/** What one scan changed, with each finding's title and severity (the rules' preview). */
export function changesOfScanWithTitles(db: DB, scanId: string) {
  return db
    .selectFrom('scan_changes')
    .innerJoin('findings', 'findings.id', 'scan_changes.finding_id')
    .innerJoin('finding_texts', 'finding_texts.id', 'findings.text_id')
    .select([
      'scan_changes.kind',
      'scan_changes.from_severity',
      'scan_changes.to_severity',
      'findings.severity',
      'finding_texts.title',
    ])
    .where('scan_changes.scan_id', '=', scanId)
    .execute();
}
