import type { DB } from './database.ts';
import { skipLockedRows } from './dialect.ts';

/**
 * Claims chosen due rows of an outbox table (webhook deliveries, notifications) for a worker by
 * moving next_attempt_at to the end of its lease. Rows another worker is claiming are skipped (FOR
 * UPDATE SKIP LOCKED on PostgreSQL; SQLite has one writer), and one claimed already is no longer
 * due: each row goes to one worker. A killed worker's rows are due again once the lease has expired.
 */
export async function claimDue(
  db: DB,
  table: 'webhook_deliveries' | 'notifications',
  ids: string[],
  worker: string,
  now: string,
  leaseUntil: string,
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  return db.transaction().execute(async (trx) => {
    const free = await skipLockedRows(
      trx,
      trx
        .selectFrom(table)
        .select('id')
        .where('id', 'in', ids)
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now),
    ).execute();
    if (free.length === 0) return new Set<string>();
    const rows = await trx
      .updateTable(table)
      .set({ next_attempt_at: leaseUntil, claimed_by: worker })
      .where(
        'id',
        'in',
        free.map((row) => row.id),
      )
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .returning('id')
      .execute();
    return new Set(rows.map((row) => row.id));
  });
}
