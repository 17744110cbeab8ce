import type { z } from 'zod';
import type { FindingExtendInput, FindingHistoryInput, FindingStatusInput } from '../routers/findings/schemas.ts';
import { currentAcceptance, endAcceptances, insertAcceptance, openAcceptancesOfTenant } from '../db/acceptances.ts';
import type { DB } from '../db/database.ts';
import { actorLabel, insertStatusChange, statusChangesOf } from '../db/finding-status-changes.ts';
import { findFinding, setFindingStatus } from '../db/findings.ts';
import { enqueueEvents } from '../db/outbox.ts';
import { findUser, teamOfTenant } from '../db/tenancy.ts';
import { assertPermission, type Actor } from '../domain/actor.ts';
import { Forbidden, Invalid, NotFound } from '../domain/errors.ts';
import { RISK_ACCEPTANCE, type FindingStatus } from '../domain/vocabulary.ts';
import { nowOf, type ServiceDeps } from './deps.ts';
import { daysLeft } from './expiries.ts';
import { acceptanceView, findingEventData, findingView } from './views.ts';

const DAY_MS = 86_400_000;
/** RFC 3339 date-time with seconds and an offset: what the API writes and reads everywhere. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;

/** A status change as the router's schema parses it (the admin CLI sends the same fields). */
export type StatusInput = z.infer<typeof FindingStatusInput>;

/** The end of an acceptance: a date-time in the future, at most a year ahead. Never "forever". */
function acceptanceEnd(value: string | null | undefined, now: number): string {
  if (!value) throw new Invalid('expires_at: geef een einddatum op; een geaccepteerd risico verloopt altijd.');
  const at = DATE_TIME.test(value.trim()) ? Date.parse(value.trim()) : Number.NaN;
  if (Number.isNaN(at))
    throw new Invalid('expires_at: geen geldige datum-tijd (RFC 3339, zoals 2027-03-31T12:00:00Z).');
  if (at <= now) throw new Invalid('expires_at: de einddatum moet in de toekomst liggen.');
  if (at > now + RISK_ACCEPTANCE.maxDays * DAY_MS)
    throw new Invalid(`expires_at: hoogstens ${RISK_ACCEPTANCE.maxDays} dagen vooruit.`);
  return new Date(at).toISOString();
}

/** Only people accept a risk: a scanned page can talk an agent into anything. */
function assertPerson(actor: Actor): void {
  if (actor.actor.kind === 'api_key')
    throw new Forbidden(
      'Alleen mensen accepteren een risico (dashboard of beheer-CLI); agents lezen acceptaties alleen.',
    );
}

async function ownerOf(db: DB, actor: Actor, ownerId: string | null | undefined) {
  if (!ownerId) throw new Invalid('owner_id: geef aan welke gebruiker eigenaar van het risico is.');
  const owner = await findUser(db, ownerId);
  if (!owner || owner.tenant_id !== actor.tenantId || owner.blocked_at)
    throw new Invalid('owner_id: geen actieve gebruiker van deze organisatie.');
  return owner;
}

async function findingOf(deps: ServiceDeps, actor: Actor, findingId: string) {
  const finding = await findFinding(deps.db, findingId);
  if (!finding || finding.tenant_id !== actor.tenantId) throw new NotFound('Bevinding');
  return finding;
}

/**
 * Sets a finding's status and records who did it, when and why, in one transaction. Accepting a
 * risk needs a reason, an owner and an end; any other status revokes the acceptance. Resolving a
 * finding sends finding_resolved (`change.kind` manual).
 */
export async function changeFindingStatus(deps: ServiceDeps, actor: Actor, input: StatusInput) {
  assertPermission(actor, 'write_config');
  const now = nowOf(deps);
  const reason = input.reason?.trim() || null;
  let acceptance: { owner_id: string; expires_at: string } | null = null;
  if (input.status === 'ACCEPTED_RISK') {
    assertPerson(actor);
    if (!reason || [...reason].length < RISK_ACCEPTANCE.minReasonLength)
      throw new Invalid(
        `reason: geef een reden van minstens ${RISK_ACCEPTANCE.minReasonLength} tekens op waarom het risico wordt geaccepteerd.`,
      );
    const expiresAt = acceptanceEnd(input.expires_at, now);
    acceptance = { owner_id: (await ownerOf(deps.db, actor, input.owner_id)).id, expires_at: expiresAt };
  }
  const before = await findingOf(deps, actor, input.finding_id);
  const label = await actorLabel(deps.db, actor.actor);
  const at = new Date(now).toISOString();
  return deps.db.transaction().execute(async (trx) => {
    await endAcceptances(trx, before.id, at);
    if (acceptance)
      await insertAcceptance(trx, {
        tenant_id: actor.tenantId,
        finding_id: before.id,
        reason: reason!,
        ...acceptance,
        created_by: label,
        created_at: at,
      });
    const change = await recordStatus(trx, actor, label, before.id, input.status, reason, at);
    const finding = findingView((await findFinding(trx, before.id))!);
    if (input.status === 'RESOLVED' && before.status !== 'RESOLVED')
      await enqueueEvents(
        trx,
        actor.tenantId,
        [
          {
            type: 'finding_resolved',
            data: findingEventData(finding, {
              kind: 'manual',
              scan_id: null,
              previous_scan_id: null,
              previous_status: before.status,
              previous_severity: before.severity,
            }),
          },
        ],
        at,
      );
    return { finding, change };
  });
}

/**
 * A new acceptance of an accepted risk with a later (or earlier) end: the old one ends, the reason
 * and owner carry over unless given. Recorded in the history like any status change.
 */
export async function extendAcceptance(deps: ServiceDeps, actor: Actor, input: z.infer<typeof FindingExtendInput>) {
  assertPermission(actor, 'write_config');
  assertPerson(actor);
  const finding = await findingOf(deps, actor, input.finding_id);
  const current = await currentAcceptance(deps.db, finding.id);
  if (finding.status !== 'ACCEPTED_RISK' || !current)
    throw new Invalid('finding_id: deze bevinding is geen geaccepteerd risico; accepteer het eerst.');
  return changeFindingStatus(deps, actor, {
    finding_id: finding.id,
    status: 'ACCEPTED_RISK',
    reason: input.reason ?? current.reason,
    owner_id: input.owner_id ?? current.owner_id,
    expires_at: input.expires_at,
  });
}

async function recordStatus(
  trx: DB,
  actor: Actor,
  label: string,
  findingId: string,
  status: FindingStatus,
  reason: string | null,
  at: string,
) {
  await setFindingStatus(trx, findingId, status, at);
  const stored = await insertStatusChange(trx, {
    tenant_id: actor.tenantId,
    finding_id: findingId,
    status,
    reason,
    actor_kind: actor.actor.kind,
    actor_id: actor.actor.id,
    actor_label: label,
    changed_at: at,
    scan_id: null,
  });
  return changeView(stored);
}

const changeView = (row: Awaited<ReturnType<typeof statusChangesOf>>[number]) => ({
  finding_id: row.finding_id,
  status: row.status,
  reason: row.reason,
  changed_by: row.actor_label,
  changed_at: row.changed_at,
  scan_id: row.scan_id,
});

/** The status history of some of the tenant's findings, newest first. */
export async function findingStatusHistory(
  deps: ServiceDeps,
  actor: Actor,
  input: z.infer<typeof FindingHistoryInput>,
) {
  assertPermission(actor, 'read_findings');
  return (await statusChangesOf(deps.db, actor.tenantId, input.finding_ids)).map(changeView);
}

/** The acceptance that counts for a finding now, as the API shows it; null when none does. */
export async function acceptanceOf(deps: ServiceDeps, findingId: string) {
  const row = await currentAcceptance(deps.db, findingId);
  return row ? acceptanceView(row) : null;
}

/** The tenant's accepted risks still counting, soonest end first (the dashboard's register). */
export async function acceptanceRegister(deps: ServiceDeps, actor: Actor) {
  assertPermission(actor, 'read_findings');
  const now = nowOf(deps);
  return (await openAcceptancesOfTenant(deps.db, actor.tenantId)).map((row) => ({
    finding_id: row.finding_id,
    title: row.title,
    severity: row.severity,
    endpoint: row.endpoint,
    site_name: row.site_name,
    reason: row.reason,
    owner: { id: row.owner_id, email: row.owner_email },
    expires_at: row.expires_at,
    days_left: daysLeft(row.expires_at, now),
  }));
}

/** Who can own an accepted risk: the tenant's active users (the dashboard's owner choice). */
export async function riskOwners(deps: ServiceDeps, actor: Actor) {
  assertPermission(actor, 'write_config');
  return (await teamOfTenant(deps.db, actor.tenantId))
    .filter((user) => user.blocked_at === null)
    .map((user) => ({ id: user.id, email: user.email }));
}
