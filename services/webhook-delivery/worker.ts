import type { DB } from '../../db/database.ts';
import type { Logger } from '../logger.ts';
import { PollingWorker } from '../polling-worker.ts';
import { webhookDeliveriesTotal } from '../metrics.ts';
import type { SecretBox } from '../../infra/secret-encryption.ts';
import { systemClock, type Clock } from '../../infra/clock.ts';
import { claimDeliveries, dueDeliveries, recordAttempt, type DueDelivery } from '../../db/outbox.ts';
import { sendWebhook } from './sender.ts';

export interface WorkerOptions {
  /** This worker's name in delivery leases. */
  workerId: string;
  /** How long a claimed delivery stays with this worker; longer than one attempt (15 s). */
  leaseMs: number;
  retrySchedule: number[];
  pollIntervalMs: number;
  disableAfter: number;
  allowPrivateTargets: boolean;
  /** Decrypts the stored signing secrets. */
  secrets: SecretBox;
  /** Deliveries in flight at once, over all webhooks. */
  maxInFlight?: number;
  /** Deliveries in flight at once to one webhook, so a slow receiver cannot take every slot. */
  maxPerWebhook?: number;
  /** When deliveries are due, leased and retried; the system's by default. */
  clock?: Clock;
}

/**
 * Delivers the outbox: polls due deliveries and sends them concurrently within bounds. Every state
 * change is in the database, so a restart resumes where the previous process stopped (at-least-once).
 */
export class WebhookWorker extends PollingWorker {
  private readonly inFlight = new Map<string, string>();

  constructor(
    private readonly db: DB,
    private readonly options: WorkerOptions,
    log: Logger,
  ) {
    super(options.pollIntervalMs, log, 'webhook delivery');
  }

  protected busy(): boolean {
    return this.inFlight.size > 0;
  }

  private now(): number {
    return (this.options.clock ?? systemClock).now();
  }

  /** One polling round; deliveries started here finish on their own time. */
  protected async round(): Promise<void> {
    const maxInFlight = this.options.maxInFlight ?? 32;
    const free = maxInFlight - this.inFlight.size;
    if (free > 0) {
      const now = this.now();
      const due = await dueDeliveries(this.db, new Date(now).toISOString(), free * 2, [...this.inFlight.keys()]);
      const perWebhook = new Map<string, number>();
      for (const webhookId of this.inFlight.values()) perWebhook.set(webhookId, (perWebhook.get(webhookId) ?? 0) + 1);
      const chosen: DueDelivery[] = [];
      for (const delivery of due) {
        if (this.inFlight.size + chosen.length >= maxInFlight) break;
        const busy = perWebhook.get(delivery.webhook_id) ?? 0;
        if (busy >= (this.options.maxPerWebhook ?? 2)) continue;
        perWebhook.set(delivery.webhook_id, busy + 1);
        chosen.push(delivery);
      }
      // Only what this worker's claim won is delivered: several workers never send the same attempt.
      const claimed = await claimDeliveries(
        this.db,
        chosen.map((d) => d.id),
        this.options.workerId,
        new Date(now).toISOString(),
        new Date(now + this.options.leaseMs).toISOString(),
      );
      for (const delivery of chosen.filter((d) => claimed.has(d.id))) {
        this.inFlight.set(delivery.id, delivery.webhook_id);
        void this.deliver(delivery).finally(() => this.inFlight.delete(delivery.id));
      }
    }
  }

  private async deliver(delivery: DueDelivery): Promise<void> {
    const started = this.now();
    const attemptedAt = new Date(started).toISOString();
    let secret: string | null = null;
    try {
      secret = this.options.secrets.decrypt(delivery.secret);
    } catch (error) {
      // A key missing from SECRETS_KEY: the attempt fails and retries, as an unreachable receiver would.
      this.log.error({ err: error, webhook: delivery.webhook_id }, 'webhook secret cannot be decrypted');
    }
    const result =
      secret === null
        ? { statusCode: null, error: 'geheim niet te ontsleutelen (SECRETS_KEY mist de sleutel)' }
        : await sendWebhook(
            { url: delivery.url, secret, messageId: delivery.message_id, body: delivery.payload },
            this.options.allowPrivateTargets,
          );
    const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const gone = result.statusCode === 410;
    webhookDeliveriesTotal.inc({ outcome: succeeded ? 'delivered' : gone ? 'gone' : 'failed' });
    const retryDelay = this.options.retrySchedule[delivery.attempts];
    const nextAttemptAt =
      succeeded || gone || retryDelay === undefined ? null : new Date(started + retryDelay).toISOString();
    try {
      await recordAttempt(
        this.db,
        {
          deliveryId: delivery.id,
          webhookId: delivery.webhook_id,
          attemptedAt,
          statusCode: result.statusCode,
          error: result.error,
          durationMs: this.now() - started,
          succeeded,
          nextAttemptAt,
          gone,
        },
        this.options.disableAfter,
      );
    } catch (error) {
      this.log.error({ err: error, delivery: delivery.id }, 'recording a webhook attempt failed');
    }
    if (!succeeded)
      this.log.warn(
        { webhook: delivery.webhook_id, message: delivery.message_id, status: result.statusCode, error: result.error },
        'webhook delivery failed',
      );
  }
}
