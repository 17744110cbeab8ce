import type { Selectable } from 'kysely';
import type { DB } from './database.ts';
import { skipLockedRows } from './dialect.ts';
import { uuidv7 } from './ids.ts';
import type { ScanJobsTable } from './schema.ts';

export type ScanJob = Selectable<ScanJobsTable>;

/** Sets or clears a site's schedule; false when the tenant has no such site. */
export async function setSiteSchedule(
  db: DB,
  tenantId: string,
  siteId: string,
  intervalHours: number | null,
  nextScanAt: string | null,
): Promise<boolean> {
  const result = await db
    .updateTable('sites')
    .set({ scan_interval_hours: intervalHours, next_scan_at: nextScanAt, scan_failures: 0 })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', siteId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Scheduled sites whose next scan is due and that have no job waiting or running. */
export async function dueSites(db: DB, now: string, limit: number) {
  return db
    .selectFrom('sites')
    .select(['id', 'tenant_id', 'scan_interval_hours', 'next_scan_at'])
    .where('next_scan_at', 'is not', null)
    .where('next_scan_at', '<=', now)
    .where('scan_interval_hours', 'is not', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('scan_jobs')
            .select('scan_jobs.id')
            .whereRef('scan_jobs.site_id', '=', 'sites.id')
            .where('scan_jobs.status', '=', 'pending'),
        ),
      ),
    )
    .orderBy('next_scan_at', 'asc')
    .limit(limit)
    .execute();
}

/**
 * Creates the job for a due site and moves its next scan on, as one compare-and-set: of several
 * workers seeing the same due site, only the one whose update finds the old next_scan_at creates
 * the job. Moving on from now (not from the missed slot) makes a long downtime one scan, not many.
 */
export async function enqueueScanJob(
  db: DB,
  site: { id: string; tenant_id: string; next_scan_at: string },
  now: string,
  nextScanAt: string,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable('sites')
      .set({ next_scan_at: nextScanAt })
      .where('id', '=', site.id)
      .where('next_scan_at', '=', site.next_scan_at)
      .executeTakeFirst();
    if (moved.numUpdatedRows === 0n) return false;
    await trx
      .insertInto('scan_jobs')
      .values({
        id: uuidv7(),
        tenant_id: site.tenant_id,
        site_id: site.id,
        status: 'pending',
        due_at: site.next_scan_at,
        run_after: now,
        claimed_by: null,
        attempts: 0,
        reason: null,
        scan_id: null,
        created_at: now,
        finished_at: null,
      })
      .execute();
    return true;
  });
}

/**
 * Claims up to `limit` runnable jobs for a worker by moving run_after to the end of its lease, so no
 * other worker sees them until the lease has expired (a killed worker's jobs come back then). The
 * candidates are locked with FOR UPDATE SKIP LOCKED on PostgreSQL; SQLite has one writer. The
 * UPDATE re-checks that each job is still runnable: a job is never claimed twice at once.
 */
export async function claimScanJobs(
  db: DB,
  worker: string,
  now: string,
  leaseUntil: string,
  limit: number,
): Promise<ScanJob[]> {
  return db.transaction().execute(async (trx) => {
    const candidates = await skipLockedRows(
      trx,
      trx
        .selectFrom('scan_jobs')
        .select('id')
        .where('status', '=', 'pending')
        .where('run_after', '<=', now)
        .orderBy('run_after', 'asc')
        .limit(limit),
    ).execute();
    if (candidates.length === 0) return [];
    return trx
      .updateTable('scan_jobs')
      .set((eb) => ({ run_after: leaseUntil, claimed_by: worker, attempts: eb('attempts', '+', 1) }))
      .where(
        'id',
        'in',
        candidates.map((c) => c.id),
      )
      .where('status', '=', 'pending')
      .where('run_after', '<=', now)
      .returningAll()
      .execute();
  });
}

/** Ends a job the worker still holds; false when its lease went to another worker. */
export async function finishScanJob(
  db: DB,
  jobId: string,
  worker: string,
  outcome: { status: 'completed' | 'skipped' | 'failed'; reason: string | null; scanId: string | null },
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('scan_jobs')
    .set({
      status: outcome.status,
      reason: outcome.reason,
      scan_id: outcome.scanId,
      finished_at: now,
      claimed_by: null,
    })
    .where('id', '=', jobId)
    .where('claimed_by', '=', worker)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Gives a job back to run again after `runAfter` (the scan could not start now). */
export async function releaseScanJob(db: DB, jobId: string, worker: string, runAfter: string): Promise<void> {
  await db
    .updateTable('scan_jobs')
    .set({ run_after: runAfter, claimed_by: null })
    .where('id', '=', jobId)
    .where('claimed_by', '=', worker)
    .execute();
}

/** Counts a scheduled scan's outcome: consecutive failures grow or start again at 0; returns the count. */
export async function countScheduleFailure(db: DB, siteId: string, failed: boolean): Promise<number> {
  const row = await db
    .updateTable('sites')
    .set((eb) => ({ scan_failures: failed ? eb('scan_failures', '+', 1) : 0 }))
    .where('id', '=', siteId)
    .returning('scan_failures')
    .executeTakeFirst();
  return row?.scan_failures ?? 0;
}

/** Moves a scheduled site's next scan (back-off, next quota period); a site without schedule stays off. */
export async function moveNextScan(db: DB, siteId: string, nextScanAt: string): Promise<void> {
  await db
    .updateTable('sites')
    .set({ next_scan_at: nextScanAt })
    .where('id', '=', siteId)
    .where('scan_interval_hours', 'is not', null)
    .execute();
}

/** The latest jobs of a site, newest first (operators see skipped and failed runs with their reason). */
export async function jobsOfSite(db: DB, siteId: string, limit = 20): Promise<ScanJob[]> {
  return db
    .selectFrom('scan_jobs')
    .selectAll()
    .where('site_id', '=', siteId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
