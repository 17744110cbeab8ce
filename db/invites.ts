import type { DB } from './database.ts';
import type { InvitesTable } from './schema.ts';

export async function insertInvite(db: DB, invite: InvitesTable): Promise<void> {
  await db.insertInto('invites').values(invite).execute();
}

export async function findInvite(db: DB, tokenHash: string) {
  return db.selectFrom('invites').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Marks an invite used; false when it was used already (two tabs, a replayed link). */
export async function acceptInvite(db: DB, tokenHash: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('invites')
    .set({ accepted_at: at })
    .where('token_hash', '=', tokenHash)
    .where('accepted_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Invites of a tenant still open, newest first. */
export async function openInvites(db: DB, tenantId: string, now: string) {
  return db
    .selectFrom('invites')
    .select(['email', 'role', 'created_at', 'expires_at'])
    .where('tenant_id', '=', tenantId)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .execute();
}
