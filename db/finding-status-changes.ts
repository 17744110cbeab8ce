import { uuidv7 } from './ids.ts';
import type { DB } from './database.ts';
import type { FindingStatusChangesTable } from './schema.ts';

/** A readable name for whoever acts: a person's e-mail address, a key's name, a system job's id. */
export async function actorLabel(
  db: DB,
  actor: { kind: FindingStatusChangesTable['actor_kind']; id: string },
): Promise<string> {
  if (actor.kind === 'user')
    return (
      (await db.selectFrom('users').select('email').where('id', '=', actor.id).executeTakeFirst())?.email ?? actor.id
    );
  if (actor.kind === 'api_key')
    return `API-sleutel ${(await db.selectFrom('api_keys').select('name').where('id', '=', actor.id).executeTakeFirst())?.name ?? actor.id}`;
  return actor.id;
}

export async function insertStatusChange(
  db: DB,
  change: Omit<FindingStatusChangesTable, 'id'>,
): Promise<FindingStatusChangesTable> {
  const row = { id: uuidv7(), ...change };
  await db.insertInto('finding_status_changes').values(row).execute();
  return row;
}

/** The changes of the tenant's findings, newest first. */
export async function statusChangesOf(db: DB, tenantId: string, findingIds: readonly string[]) {
  if (findingIds.length === 0) return [];
  return db
    .selectFrom('finding_status_changes')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('finding_id', 'in', findingIds)
    .orderBy('changed_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}
