import type { ServiceDeps } from './deps.ts';
import type { Logger } from './logger.ts';
import { secretBoxFor } from './secrets.ts';
import { WebhookWorker } from './webhook-delivery/worker.ts';
import { reencryptWebhookSecrets } from './webhooks.ts';

export interface Workers {
  stop(): Promise<void>;
}

/**
 * Starts the background work of one process: webhook delivery. The entry point runs it beside the
 * HTTP server (npm start) or alone (npm run worker); it needs nothing of HTTP.
 */
export async function startWorkers(deps: ServiceDeps, log: Logger): Promise<Workers> {
  const { db, config } = deps;
  const secrets = secretBoxFor(config);
  // Secrets stored in plain text, or under a key that SECRETS_KEY no longer lists first, are
  // re-encrypted with the current key: upgrading and rotating need nothing more than a restart.
  const changed = await reencryptWebhookSecrets(db, secrets);
  if (changed > 0) log.info({ changed }, 'webhook secrets re-encrypted with the current key');
  const webhooks = new WebhookWorker(
    db,
    {
      retrySchedule: config.WEBHOOK_RETRY_SCHEDULE,
      pollIntervalMs: config.WEBHOOK_POLL_INTERVAL,
      disableAfter: config.WEBHOOK_DISABLE_AFTER,
      allowPrivateTargets: config.SCANNER_ALLOW_PRIVATE_TARGETS,
      secrets,
    },
    log,
  );
  webhooks.start();
  return { stop: () => webhooks.stop() };
}
