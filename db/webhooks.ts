import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { DB } from './database.ts';
import type { WebhooksTable } from './schema.ts';

export type WebhookRow = Selectable<WebhooksTable>;

export async function insertWebhook(
  db: DB,
  tenantId: string,
  url: string,
  events: string[],
  secret: string,
  now: string,
): Promise<WebhookRow> {
  const row: WebhookRow = {
    id: randomUUID(),
    tenant_id: tenantId,
    url,
    events: JSON.stringify(events),
    secret,
    enabled: 1,
    last_triggered_at: null,
    failure_count: 0,
    created_at: now,
  };
  await db.insertInto('webhooks').values(row).execute();
  return row;
}

export async function listWebhooks(db: DB, tenantId: string): Promise<WebhookRow[]> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
}

/** Deletes a webhook of the tenant; false when there is none with that id. */
export async function deleteWebhook(db: DB, tenantId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('webhooks')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Whether the webhook exists; with a tenant, only as that tenant's. */
export async function webhookExists(db: DB, id: string, tenantId?: string): Promise<boolean> {
  let query = db.selectFrom('webhooks').select('id').where('id', '=', id);
  if (tenantId !== undefined) query = query.where('tenant_id', '=', tenantId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** Enables a webhook again (with a tenant, only that tenant's); its count of consecutive failures starts over. */
export async function enableWebhook(db: DB, id: string, tenantId?: string): Promise<boolean> {
  let query = db.updateTable('webhooks').set({ enabled: 1, failure_count: 0 }).where('id', '=', id);
  if (tenantId !== undefined) query = query.where('tenant_id', '=', tenantId);
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function countWebhooks(db: DB, tenantId: string): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', tenantId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Every stored secret, for re-encryption under a new key. */
export async function allWebhookSecrets(db: DB): Promise<Array<{ id: string; secret: string }>> {
  return db.selectFrom('webhooks').select(['id', 'secret']).execute();
}

export async function updateWebhookSecret(db: DB, id: string, secret: string): Promise<void> {
  await db.updateTable('webhooks').set({ secret }).where('id', '=', id).execute();
}
