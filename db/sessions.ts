import type { DB } from './database.ts';

export async function insertSession(
  db: DB,
  session: { id_hash: string; user_id: string; created_at: string; last_seen_at: string; expires_at: string },
): Promise<void> {
  await db.insertInto('sessions').values(session).execute();
}

/** The session with its user and tenant state, by the hash of its id. */
export async function findSession(db: DB, idHash: string) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .innerJoin('tenants', 'tenants.id', 'users.tenant_id')
    .select([
      'sessions.id_hash',
      'sessions.created_at',
      'sessions.last_seen_at',
      'sessions.expires_at',
      'users.id as user_id',
      'users.tenant_id',
      'users.email',
      'users.role',
      'users.is_staff',
      'users.blocked_at',
      'tenants.suspended_at',
    ])
    .where('sessions.id_hash', '=', idHash)
    .executeTakeFirst();
}

export async function touchSession(db: DB, idHash: string, at: string): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: at }).where('id_hash', '=', idHash).execute();
}

export async function deleteSession(db: DB, idHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
}

/** Ends every session of a user (log-out everywhere, password change, block). */
export async function deleteSessionsOfUser(db: DB, userId: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}

export async function setPasswordHash(db: DB, userId: string, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
}
