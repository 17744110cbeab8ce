import {
  countPrunable,
  pruneAttemptBatch,
  pruneMessageBatch,
  pruneScanBatch,
  type PruneCounts,
  type PruneCutoffs,
} from '../db/retention.ts';
import { nextTurn } from '../scanner/turns.ts';
import type { Config } from '../infra/config.ts';
import { nowOf, type ServiceDeps } from './deps.ts';
import type { Logger } from './logger.ts';
import { PollingWorker } from './polling-worker.ts';

const DAY_MS = 86_400_000;
/** Rows per transaction: small enough that no write waits long behind a prune. */
export const PRUNE_BATCH = 200;
/** How often a worker prunes. */
const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

export function cutoffsOf(
  config: Pick<Config, 'SCAN_RETENTION_DAYS' | 'OUTBOX_RETENTION_DAYS' | 'DELIVERY_LOG_RETENTION_DAYS'>,
  now: Date,
): PruneCutoffs {
  const before = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
  return {
    scansBefore: before(config.SCAN_RETENTION_DAYS),
    messagesBefore: before(config.OUTBOX_RETENTION_DAYS),
    attemptsBefore: before(config.DELIVERY_LOG_RETENTION_DAYS),
  };
}

/** What would go now (admin prune --dry-run). */
export function prunable(deps: ServiceDeps, now = new Date(nowOf(deps))): Promise<PruneCounts> {
  return countPrunable(deps.db, cutoffsOf(deps.config, now));
}

/**
 * Deletes what retention allows, batch by batch with a turn of the event loop between: scans past
 * SCAN_RETENTION_DAYS (never a site's latest, never a finding's latest scan), finished outbox
 * messages past OUTBOX_RETENTION_DAYS and delivery attempts past DELIVERY_LOG_RETENTION_DAYS.
 */
export async function prune(
  deps: ServiceDeps,
  now = new Date(nowOf(deps)),
  shouldStop: () => boolean = () => false,
): Promise<PruneCounts> {
  const cutoffs = cutoffsOf(deps.config, now);
  const counts: PruneCounts = { scans: 0, webhook_messages: 0, webhook_attempts: 0 };
  const steps: Array<[keyof PruneCounts, () => Promise<number>]> = [
    ['scans', () => pruneScanBatch(deps.db, cutoffs.scansBefore, PRUNE_BATCH)],
    ['webhook_messages', () => pruneMessageBatch(deps.db, cutoffs.messagesBefore, PRUNE_BATCH)],
    ['webhook_attempts', () => pruneAttemptBatch(deps.db, cutoffs.attemptsBefore, PRUNE_BATCH)],
  ];
  for (const [kind, batch] of steps) {
    for (let deleted = PRUNE_BATCH; deleted === PRUNE_BATCH && !shouldStop(); ) {
      deleted = await batch();
      counts[kind] += deleted;
      await nextTurn();
    }
  }
  return counts;
}

/** Prunes once an hour, off the request path; any number of workers may (deletes are idempotent). */
export class RetentionWorker extends PollingWorker {
  private stopping = false;

  constructor(
    private readonly deps: ServiceDeps,
    log: Logger,
  ) {
    super(PRUNE_INTERVAL_MS, log, 'retention');
  }

  protected async round(): Promise<void> {
    const counts = await prune(this.deps, new Date(nowOf(this.deps)), () => this.stopping);
    if (counts.scans + counts.webhook_messages + counts.webhook_attempts > 0) this.log.info(counts, 'retention pruned');
  }

  protected busy(): boolean {
    return false;
  }

  override async stop(): Promise<void> {
    this.stopping = true;
    await super.stop();
  }
}
