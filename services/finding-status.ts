import type { DB } from '../db/database.ts';
import { actorLabel, insertStatusChange, statusChangesOf } from '../db/finding-status-changes.ts';
import { findFinding, setFindingStatus } from '../db/findings.ts';
import { enqueueEvents } from '../db/outbox.ts';
import { assertPermission, type Actor } from '../domain/actor.ts';
import { Invalid, NotFound } from '../domain/errors.ts';
import type { FindingStatus } from '../domain/vocabulary.ts';
import type { ServiceDeps } from './deps.ts';
import { findingView } from './views.ts';

export interface StatusChange {
  findingId: string;
  status: FindingStatus;
  /** Required for ACCEPTED_RISK: why the risk is accepted. */
  reason?: string | null;
}

/**
 * Sets a finding's status and records who did it, when and why, in one transaction; resolving a
 * finding sends finding_resolved. Accepting a risk needs a reason.
 */
export async function changeFindingStatus(
  deps: ServiceDeps,
  actor: Actor,
  input: { finding_id: string; status: FindingStatus; reason?: string | null },
) {
  const change: StatusChange = { findingId: input.finding_id, status: input.status, reason: input.reason };
  assertPermission(actor, 'write_config');
  const reason = change.reason?.trim() || null;
  if (change.status === 'ACCEPTED_RISK' && !reason)
    throw new Invalid('reason: geef een reden op waarom het risico wordt geaccepteerd.');
  const before = await findFinding(deps.db, change.findingId);
  if (!before || before.tenant_id !== actor.tenantId) throw new NotFound('Bevinding');
  return recordStatusChange(deps.db, actor, before.status, change, reason);
}

async function recordStatusChange(
  db: DB,
  actor: Actor,
  previous: FindingStatus,
  change: StatusChange,
  reason: string | null,
) {
  const label = await actorLabel(db, actor.actor);
  return db.transaction().execute(async (trx) => {
    await setFindingStatus(trx, change.findingId, change.status);
    const stored = await insertStatusChange(trx, {
      tenant_id: actor.tenantId,
      finding_id: change.findingId,
      status: change.status,
      reason,
      actor_kind: actor.actor.kind,
      actor_id: actor.actor.id,
      actor_label: label,
      changed_at: new Date().toISOString(),
    });
    const finding = findingView((await findFinding(trx, change.findingId))!);
    if (change.status === 'RESOLVED' && previous !== 'RESOLVED')
      await enqueueEvents(trx, actor.tenantId, [{ type: 'finding_resolved', data: finding }]);
    return { finding, change: changeView(stored) };
  });
}

const changeView = (row: Awaited<ReturnType<typeof statusChangesOf>>[number]) => ({
  finding_id: row.finding_id,
  status: row.status,
  reason: row.reason,
  changed_by: row.actor_label,
  changed_at: row.changed_at,
});

/** The status history of some of the tenant's findings, newest first. */
export async function findingStatusHistory(deps: ServiceDeps, actor: Actor, input: { finding_ids: readonly string[] }) {
  assertPermission(actor, 'read_findings');
  return (await statusChangesOf(deps.db, actor.tenantId, input.finding_ids)).map(changeView);
}
