import type { WebhookEvent } from '../domain/vocabulary.ts';
import { uuidv7 } from './ids.ts';
import type { DB } from './database.ts';
import { claimDue } from './leases.ts';

export interface OutboxEvent {
  type: WebhookEvent;
  data: unknown;
}

/**
 * Writes events and their deliveries to every enabled webhook of the tenant that subscribed to them.
 * Call it with the transaction of the change that caused the events, so none can be lost.
 */
export async function enqueueEvents(trx: DB, tenantId: string, events: OutboxEvent[], now: string): Promise<void> {
  if (events.length === 0) return;
  const webhooks = (
    await trx
      .selectFrom('webhooks')
      .select(['id', 'events'])
      .where('tenant_id', '=', tenantId)
      .where('enabled', '=', 1)
      .execute()
  ).map((w) => ({
    id: w.id,
    events: JSON.parse(w.events) as string[],
  }));
  for (const event of events) {
    const subscribers = webhooks.filter((w) => w.events.includes(event.type));
    if (subscribers.length === 0) continue;
    const id = `msg_${uuidv7().replaceAll('-', '')}`;
    const payload = JSON.stringify({ type: event.type, timestamp: now, data: event.data });
    await trx
      .insertInto('webhook_messages')
      .values({ id, tenant_id: tenantId, event_type: event.type, payload, created_at: now })
      .execute();
    await trx
      .insertInto('webhook_deliveries')
      .values(
        subscribers.map((w) => ({
          id: uuidv7(),
          message_id: id,
          webhook_id: w.id,
          status: 'pending' as const,
          attempts: 0,
          next_attempt_at: now,
          created_at: now,
        })),
      )
      .execute();
  }
}

export interface DueDelivery {
  id: string;
  message_id: string;
  webhook_id: string;
  attempts: number;
  payload: string;
  url: string;
  secret: string;
}

/** Pending deliveries whose time has come, oldest first, for enabled webhooks. */
export async function dueDeliveries(db: DB, now: string, limit: number, skip: string[]): Promise<DueDelivery[]> {
  let query = db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
    .innerJoin('webhook_messages', 'webhook_messages.id', 'webhook_deliveries.message_id')
    .select([
      'webhook_deliveries.id',
      'webhook_deliveries.message_id',
      'webhook_deliveries.webhook_id',
      'webhook_deliveries.attempts',
      'webhook_messages.payload',
      'webhooks.url',
      'webhooks.secret',
    ])
    .where('webhook_deliveries.status', '=', 'pending')
    .where('webhook_deliveries.next_attempt_at', '<=', now)
    .where('webhooks.enabled', '=', 1);
  if (skip.length) query = query.where('webhook_deliveries.id', 'not in', skip);
  return query.orderBy('webhook_deliveries.next_attempt_at', 'asc').limit(limit).execute();
}

/** Claims due rows for a worker with a lease (db/leases.ts). */
export const claimDeliveries = (db: DB, ids: string[], worker: string, now: string, leaseUntil: string) =>
  claimDue(db, 'webhook_deliveries', ids, worker, now, leaseUntil);

export interface AttemptOutcome {
  deliveryId: string;
  webhookId: string;
  attemptedAt: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  succeeded: boolean;
  /** When to try again; null when no further attempt will be made. */
  nextAttemptAt: string | null;
  /** The receiver answered 410 Gone: disable the webhook. */
  gone: boolean;
}

/**
 * Stores one attempt and its effect on the delivery and the webhook, atomically; a webhook with
 * `disableAfter` consecutive failures is disabled.
 */
export async function recordAttempt(db: DB, outcome: AttemptOutcome, disableAfter: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('webhook_attempts')
      .values({
        id: uuidv7(),
        delivery_id: outcome.deliveryId,
        webhook_id: outcome.webhookId,
        attempted_at: outcome.attemptedAt,
        status_code: outcome.statusCode,
        error: outcome.error,
        duration_ms: outcome.durationMs,
      })
      .execute();
    await trx
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        attempts: eb('attempts', '+', 1),
        status: outcome.succeeded ? 'delivered' : outcome.nextAttemptAt ? 'pending' : 'failed',
        next_attempt_at: outcome.nextAttemptAt ?? outcome.attemptedAt,
        claimed_by: null,
      }))
      .where('id', '=', outcome.deliveryId)
      .execute();
    await trx
      .updateTable('webhooks')
      .set((eb) => ({
        last_triggered_at: outcome.attemptedAt,
        failure_count: outcome.succeeded ? 0 : eb('failure_count', '+', 1),
        ...(outcome.gone ? { enabled: 0 } : {}),
      }))
      .where('id', '=', outcome.webhookId)
      .execute();
    if (!outcome.succeeded) {
      await trx
        .updateTable('webhooks')
        .set({ enabled: 0 })
        .where('id', '=', outcome.webhookId)
        .where('failure_count', '>=', disableAfter)
        .execute();
    }
  });
}

/** Attempts of a webhook, newest first, with the message they carried. */
export async function attemptsOfWebhook(db: DB, webhookId: string, limit = 100) {
  return db
    .selectFrom('webhook_attempts')
    .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id')
    .innerJoin('webhook_messages', 'webhook_messages.id', 'webhook_deliveries.message_id')
    .select([
      'webhook_messages.id as message_id',
      'webhook_messages.event_type',
      'webhook_attempts.attempted_at',
      'webhook_attempts.status_code',
      'webhook_attempts.error',
      'webhook_attempts.duration_ms',
      'webhook_deliveries.status as delivery_status',
    ])
    .where('webhook_attempts.webhook_id', '=', webhookId)
    .orderBy('webhook_attempts.attempted_at', 'desc')
    .limit(limit)
    .execute();
}
