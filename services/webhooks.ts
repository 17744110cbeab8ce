import type { z } from 'zod';
import type { WebhookCreateInput, WebhookIdInput } from '../routers/webhooks/schemas.ts';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { DB } from '../db/database.ts';
import { attemptsOfWebhook } from '../db/outbox.ts';
import { allChannelTargets, updateChannel } from '../db/notifications.ts';
import {
  allWebhookSecrets,
  countWebhooks,
  deleteWebhook as deleteWebhookRow,
  enableWebhook as enableWebhookRow,
  insertWebhook,
  listWebhooks as listWebhookRows,
  updateWebhookSecret,
  webhookExists,
} from '../db/webhooks.ts';
import { assertPermission, type Actor } from '../domain/actor.ts';
import { Conflict, Invalid, NotFound } from '../domain/errors.ts';
import { bareHost, refusalReason } from '../scanner/net/address-policy.ts';
import { isoNow, type ServiceDeps } from './deps.ts';
import { assertFeatureEnabled } from './feature-flags.ts';
import { secretBoxFor, type SecretBox } from '../infra/secret-encryption.ts';
import { webhookView } from './views.ts';

function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * A receiver (an https URL, as the routers' webUrl schema has checked) must not name a local or
 * internal host literally. No DNS look-up happens here: the delivery applies the connect-time guard
 * to the resolved address.
 */
export function validateReceiverUrl(raw: string, allowPrivateTargets: boolean): string {
  const url = new URL(raw);
  // "localhost." is localhost: the trailing dot of a fully qualified name changes nothing.
  const host = bareHost(url.hostname).toLowerCase().replace(/\.+$/, '');
  if (!allowPrivateTargets && (host === 'localhost' || host.endsWith('.localhost'))) {
    throw new Invalid('url: localhost is niet toegestaan als webhook-ontvanger.');
  }
  if (net.isIP(host)) {
    const reason = refusalReason(host, { allowPrivateTargets });
    if (reason) throw new Invalid(`url: ${host} is een ${reason} en niet toegestaan als webhook-ontvanger.`);
  }
  return url.href;
}

/**
 * Registers a receiver of the tenant: URL checked, events de-duplicated, secret generated when absent
 * and stored encrypted. The plain secret is returned this once.
 */
export async function registerWebhook(deps: ServiceDeps, actor: Actor, input: z.infer<typeof WebhookCreateInput>) {
  assertPermission(actor, 'write_config');
  await assertFeatureEnabled(deps.db, 'webhooks', actor.tenantId);
  const { config, db } = deps;
  const url = validateReceiverUrl(input.url, config.SCANNER_ALLOW_PRIVATE_TARGETS);
  if ((await countWebhooks(db, actor.tenantId)) >= config.MAX_WEBHOOKS_PER_TENANT) {
    throw new Conflict(
      `Maximaal ${config.MAX_WEBHOOKS_PER_TENANT} webhooks per account: verwijder eerst een webhook die u niet meer gebruikt.`,
    );
  }
  const secret = input.secret ?? generateWebhookSecret();
  const row = await insertWebhook(
    db,
    actor.tenantId,
    url,
    [...new Set(input.events)],
    secretBoxFor(config).encrypt(secret),
    isoNow(deps),
  );
  const { last_triggered_at: _triggered, failure_count: _failures, ...created } = webhookView(row);
  return { ...created, secret };
}

export async function listWebhooks(deps: ServiceDeps, actor: Actor) {
  assertPermission(actor, 'read_config');
  await assertFeatureEnabled(deps.db, 'webhooks', actor.tenantId);
  return (await listWebhookRows(deps.db, actor.tenantId)).map(webhookView);
}

/** Deletes one of the tenant's webhooks; another tenant's is not found. */
export async function deleteWebhook(
  deps: ServiceDeps,
  actor: Actor,
  input: z.infer<typeof WebhookIdInput>,
): Promise<void> {
  assertPermission(actor, 'write_config');
  await assertFeatureEnabled(deps.db, 'webhooks', actor.tenantId);
  if (!(await deleteWebhookRow(deps.db, actor.tenantId, input.id))) throw new NotFound('Webhook');
}

/** The latest delivery attempts to one of the tenant's webhooks, newest first. */
export async function webhookDeliveries(deps: ServiceDeps, actor: Actor, input: z.infer<typeof WebhookIdInput>) {
  assertPermission(actor, 'read_config');
  if (!(await webhookExists(deps.db, input.id, actor.tenantId))) throw new NotFound('Webhook');
  return attemptsOfWebhook(deps.db, input.id);
}

/** Enables one of the tenant's webhooks again (after 410 Gone or too many failures). */
export async function reenableWebhook(deps: ServiceDeps, actor: Actor, input: z.infer<typeof WebhookIdInput>) {
  assertPermission(actor, 'write_config');
  if (!(await enableWebhookRow(deps.db, input.id, actor.tenantId))) throw new NotFound('Webhook');
  return { id: input.id, enabled: true as const };
}

/** Re-encrypts every secret not yet under the current key (a rotation, or rows stored in plain text before). */
export async function reencryptWebhookSecrets(db: DB, secrets: SecretBox): Promise<number> {
  let changed = 0;
  for (const { id, secret } of await allWebhookSecrets(db)) {
    if (secrets.isCurrent(secret)) continue;
    await updateWebhookSecret(db, id, secrets.encrypt(secrets.decrypt(secret)));
    changed += 1;
  }
  // Notification channels' URLs and tokens are kept the same way, and rotate with them.
  for (const { id, target } of await allChannelTargets(db)) {
    if (secrets.isCurrent(target)) continue;
    await updateChannel(db, id, { target: secrets.encrypt(secrets.decrypt(target)) });
    changed += 1;
  }
  return changed;
}
