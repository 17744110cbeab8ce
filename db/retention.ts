import { sql } from 'kysely';
import type { DB } from './database.ts';

// What retention may delete, found and deleted in small batches (one transaction each), so the
// service keeps answering while the worker prunes. The count tables follow through their triggers.

export interface PruneCutoffs {
  /** Scans scanned before this moment may go. */
  scansBefore: string;
  /** Outbox messages created before this moment may go once none of their deliveries is pending. */
  messagesBefore: string;
  /** Delivery attempts (the delivery log) made before this moment may go. */
  attemptsBefore: string;
}

export interface PruneCounts {
  scans: number;
  webhook_messages: number;
  webhook_attempts: number;
}

/**
 * Scans past the cut-off that are neither their site's latest scan nor the latest scan that saw a
 * finding (findings.scan_id): a site keeps its current state, and every finding, open or not, its scan.
 */
function prunableScans(db: DB, before: string) {
  return db
    .selectFrom('scans as s')
    .where('s.scanned_at', '<', before)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('scans as newer')
          .select(sql.lit(1).as('one'))
          .whereRef('newer.tenant_id', '=', 's.tenant_id')
          .whereRef('newer.site_id', '=', 's.site_id')
          .where(({ or, and, eb }) =>
            or([
              eb('newer.scanned_at', '>', eb.ref('s.scanned_at')),
              and([eb('newer.scanned_at', '=', eb.ref('s.scanned_at')), eb('newer.id', '>', eb.ref('s.id'))]),
            ]),
          ),
      ),
    )
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('findings as f').select(sql.lit(1).as('one')).whereRef('f.scan_id', '=', 's.id'))),
    );
}

function prunableMessages(db: DB, before: string) {
  return db
    .selectFrom('webhook_messages as m')
    .where('m.created_at', '<', before)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('webhook_deliveries as d')
            .select(sql.lit(1).as('one'))
            .whereRef('d.message_id', '=', 'm.id')
            .where('d.status', '=', 'pending'),
        ),
      ),
    );
}

/** How many rows each kind would lose now (admin prune --dry-run). */
export async function countPrunable(db: DB, cutoffs: PruneCutoffs): Promise<PruneCounts> {
  const [scans, messages, attempts] = await Promise.all([
    prunableScans(db, cutoffs.scansBefore)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    prunableMessages(db, cutoffs.messagesBefore)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('webhook_attempts')
      .where('attempted_at', '<', cutoffs.attemptsBefore)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { scans: Number(scans.n), webhook_messages: Number(messages.n), webhook_attempts: Number(attempts.n) };
}

/** Deletes up to `limit` prunable scans with what refers to them; returns how many went. */
export async function pruneScanBatch(db: DB, before: string, limit: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const ids = (await prunableScans(trx, before).select('s.id').orderBy('s.scanned_at').limit(limit).execute()).map(
      (row) => row.id,
    );
    if (ids.length === 0) return 0;
    await trx.deleteFrom('scan_findings').where('scan_id', 'in', ids).execute();
    await trx.deleteFrom('scan_changes').where('scan_id', 'in', ids).execute();
    await trx.deleteFrom('scan_expiries').where('scan_id', 'in', ids).execute();
    // A later scan keeps its previous_scan_id and its recorded changes: compared_to_scan_id then
    // names a scan that is no longer kept (404), which is still the truth about the comparison.
    // A scheduled run keeps its history line; the scan it made is gone.
    await trx.updateTable('scan_jobs').set({ scan_id: null }).where('scan_id', 'in', ids).execute();
    await trx.deleteFrom('scans').where('id', 'in', ids).execute();
    return ids.length;
  });
}

/** Deletes up to `limit` finished outbox messages with their deliveries and attempts. */
export async function pruneMessageBatch(db: DB, before: string, limit: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const ids = (await prunableMessages(trx, before).select('m.id').orderBy('m.created_at').limit(limit).execute()).map(
      (row) => row.id,
    );
    if (ids.length === 0) return 0;
    const deliveries = trx.selectFrom('webhook_deliveries').select('id').where('message_id', 'in', ids);
    await trx.deleteFrom('webhook_attempts').where('delivery_id', 'in', deliveries).execute();
    await trx.deleteFrom('webhook_deliveries').where('message_id', 'in', ids).execute();
    await trx.deleteFrom('webhook_messages').where('id', 'in', ids).execute();
    return ids.length;
  });
}

/** Deletes up to `limit` delivery attempts older than the cut-off. */
export async function pruneAttemptBatch(db: DB, before: string, limit: number): Promise<number> {
  const ids = (
    await db
      .selectFrom('webhook_attempts')
      .select('id')
      .where('attempted_at', '<', before)
      .orderBy('attempted_at')
      .limit(limit)
      .execute()
  ).map((row) => row.id);
  if (ids.length === 0) return 0;
  await db.deleteFrom('webhook_attempts').where('id', 'in', ids).execute();
  return ids.length;
}
