import { recordEvents } from './notifications/plan.ts';
import {
  claimScanJobs,
  dueSites,
  enqueueScanJob,
  finishScanJob,
  releaseScanJob,
  type ScanJob,
} from '../db/schedules.ts';
import { findSite } from '../db/sites.ts';
import { systemActor } from '../domain/actor.ts';
import { NotFound, QuotaExceeded, TargetRefused, TooManyRequests } from '../domain/errors.ts';
import { nowOf, type ScanControl, type ServiceDeps } from './deps.ts';
import type { Logger } from './logger.ts';
import { PollingWorker } from './polling-worker.ts';
import { triggerScan } from './scans.ts';
import { backOffSchedule, clearScheduleFailures, jitteredAfter, postponeToNextPeriod } from './schedules.ts';

export interface SchedulerOptions {
  /** This worker's name in job leases. */
  workerId: string;
  pollIntervalMs: number;
  /** Scheduled scans this worker runs at once. */
  concurrency: number;
  /** Consecutive failures of a site's scheduled scans after which scan_failed is sent. */
  failureAlertAfter: number;
  /** How long a claimed job stays with this worker; longer than a scan's deadline. */
  leaseMs: number;
}

/** The scan stored, but another worker's lease had taken the job over: roll the scan back. */
class LeaseLost extends Error {}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Runs scheduled scans: turns due sites into jobs, claims jobs with a lease and runs each as an
 * ordinary scan of the system actor (same findings lifecycle and webhooks, trigger "schedule").
 * Any number of workers can run this against one database.
 */
export class ScanScheduler extends PollingWorker {
  private readonly running = new Set<string>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly options: SchedulerOptions,
    log: Logger,
  ) {
    super(options.pollIntervalMs, log, 'scheduler');
  }

  protected busy(): boolean {
    return this.running.size > 0;
  }

  /** One round: enqueue what is due, claim what fits, start it. Scans finish on their own time. */
  protected async round(): Promise<void> {
    const now = nowOf(this.deps);
    for (const site of await dueSites(this.deps.db, iso(now), 100)) {
      if (site.next_scan_at === null || site.scan_interval_hours === null) continue;
      await enqueueScanJob(
        this.deps.db,
        { ...site, next_scan_at: site.next_scan_at },
        iso(now),
        jitteredAfter(now, site.scan_interval_hours),
      );
    }
    const free = this.options.concurrency - this.running.size;
    if (free > 0) {
      for (const job of await claimScanJobs(
        this.deps.db,
        this.options.workerId,
        iso(now),
        iso(now + this.options.leaseMs),
        free,
      )) {
        this.running.add(job.id);
        void this.run(job).finally(() => this.running.delete(job.id));
      }
    }
  }

  private async run(job: ScanJob): Promise<void> {
    const { db } = this.deps;
    const worker = this.options.workerId;
    const finish = (status: 'skipped' | 'failed', reason: string) =>
      finishScanJob(db, job.id, worker, { status, reason, scanId: null }, iso(nowOf(this.deps)));
    try {
      const scanControl: ScanControl = {
        trigger: 'schedule',
        // The job ends in the scan's own transaction: a scan is stored once, or not at all.
        // A scan that found the site down is stored, but to the schedule it is a failure. The schedule
        // moves in the same transaction, before the job ends: whoever sees the job ended sees the back-off.
        withinTransaction: async (trx, stored) => {
          const { unreachable } = stored.scan;
          const deps = { ...this.deps, db: trx };
          if (unreachable) await this.recordFailure(deps, job, unreachable, nowOf(this.deps));
          else await clearScheduleFailures(deps, job.site_id);
          const outcome = unreachable
            ? { status: 'failed' as const, reason: unreachable, scanId: stored.scan.id }
            : { status: 'completed' as const, reason: null, scanId: stored.scan.id };
          if (!(await finishScanJob(trx, job.id, worker, outcome, stored.scan.scanned_at))) throw new LeaseLost();
        },
      };
      await triggerScan({ ...this.deps, scanControl }, systemActor(job.tenant_id, 'scheduler'), {
        site_id: job.site_id,
      });
    } catch (error) {
      const now = nowOf(this.deps);
      if (error instanceof LeaseLost) {
        this.log.warn({ job: job.id }, 'scheduled scan dropped: its lease went to another worker');
      } else if (error instanceof QuotaExceeded) {
        await postponeToNextPeriod(this.deps, job.site_id, error.retryAfterSeconds, now);
        await finish('skipped', error.message);
      } else if (error instanceof TooManyRequests) {
        // No scan slot free right now: the same job runs again shortly.
        await releaseScanJob(db, job.id, worker, iso(now + error.retryAfterSeconds * 1000));
      } else if (error instanceof NotFound) {
        await finish('failed', error.message);
      } else {
        const reason = error instanceof TargetRefused ? error.message : 'Interne fout tijdens de scan.';
        if (!(error instanceof TargetRefused)) this.log.error({ err: error, job: job.id }, 'scheduled scan failed');
        // The schedule moves first and the job ends last: whoever sees the job ended sees the back-off.
        await this.recordFailure(this.deps, job, reason, now);
        await finish('failed', reason);
      }
    }
  }

  /** Backs the site's schedule off; at the configured streak of failures, tells the tenant (scan_failed). */
  private async recordFailure(deps: ServiceDeps, job: ScanJob, error: string, now: number): Promise<void> {
    const site = await findSite(deps.db, job.tenant_id, job.site_id);
    if (!site) return;
    const { failures, nextScanAt } = await backOffSchedule(deps, site, now);
    if (failures !== this.options.failureAlertAfter) return;
    await recordEvents(
      deps.db,
      deps,
      job.tenant_id,
      [
        {
          type: 'scan_failed',
          data: {
            site_id: site.id,
            site_name: site.name,
            site_url: site.url,
            error,
            consecutive_failures: failures,
            failed_at: iso(now),
            next_scan_at: nextScanAt,
          },
        },
      ],
      iso(now),
    );
  }
}
