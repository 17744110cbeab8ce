import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { ServiceDeps } from './deps.ts';
import { MonitoringSweeper } from './monitoring-sweeper.ts';
import { RetentionWorker } from './retention.ts';
import { ScanScheduler } from './scheduler.ts';
import type { Logger } from './logger.ts';
import { secretBoxFor } from '../infra/secret-encryption.ts';
import { WebhookWorker } from './webhook-delivery/worker.ts';
import { NotificationWorker, notificationWorkerOptions } from './notifications/worker.ts';
import { reencryptWebhookSecrets } from './webhooks.ts';
import { VulnerabilityDataWorker } from './vulnerability-data.ts';

export interface Workers {
  stop(): Promise<void>;
}

/**
 * Starts the background work of one process: webhook delivery, scheduled scans, retention and the
 * monitoring sweeper (accepted risks that end, expiry warnings) and the daily vulnerability data update. The entry point
 * runs it beside the HTTP server (npm start) or alone (npm run worker); it needs nothing of HTTP.
 * Any number of processes can run it against one database: jobs are claimed with leases.
 */
export async function startWorkers(deps: ServiceDeps, log: Logger): Promise<Workers> {
  const { db, config } = deps;
  const secrets = secretBoxFor(config);
  // Secrets stored in plain text, or under a key that SECRETS_KEY no longer lists first, are
  // re-encrypted with the current key: upgrading and rotating need nothing more than a restart.
  const changed = await reencryptWebhookSecrets(db, secrets);
  if (changed > 0) log.info({ changed }, 'webhook secrets re-encrypted with the current key');
  const workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const webhooks = new WebhookWorker(
    db,
    {
      workerId,
      leaseMs: config.WEBHOOK_LEASE,
      retrySchedule: config.WEBHOOK_RETRY_SCHEDULE,
      pollIntervalMs: config.WEBHOOK_POLL_INTERVAL,
      disableAfter: config.WEBHOOK_DISABLE_AFTER,
      allowPrivateTargets: config.SCANNER_ALLOW_PRIVATE_TARGETS,
      secrets,
      clock: deps.clock,
    },
    log,
  );
  const scheduler = new ScanScheduler(
    { ...deps, log: deps.log ?? log },
    {
      workerId,
      pollIntervalMs: config.SCHEDULER_POLL_INTERVAL,
      concurrency: config.SCHEDULER_CONCURRENCY,
      failureAlertAfter: config.SCAN_FAILURE_ALERT_AFTER,
      // A scan ends by its deadline; the lease outlasts it with room to store the result.
      leaseMs: config.SCANNER_DEADLINE + 60_000,
    },
    log,
  );
  const notifications = new NotificationWorker(deps, notificationWorkerOptions(deps, workerId), log);
  const retention = new RetentionWorker(deps, log);
  const sweeper = new MonitoringSweeper(deps, log);
  const vulndata = new VulnerabilityDataWorker(deps, log);
  const all = [webhooks, notifications, scheduler, retention, sweeper, vulndata];
  for (const worker of all) worker.start();
  return { stop: async () => void (await Promise.all(all.map((worker) => worker.stop()))) };
}
