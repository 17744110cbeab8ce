import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { refusalReason, bareHost } from '../scanner/address-policy.ts';
import type { DB } from '../db/database.ts';
import { allWebhookSecrets, countWebhooks, insertWebhook, updateWebhookSecret, type WebhookRow } from '../db/webhooks.ts';
import { badRequest } from '../domain/errors.ts';
import type { SecretBox } from './secrets.ts';
import { TRPCError } from '@trpc/server';
import type { WebhookEvent } from '../domain/vocabulary.ts';

function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * A receiver URL must be https and must not name a local or internal host literally. No DNS look-up
 * happens here: the delivery applies the connect-time guard to the resolved address.
 */
function validateReceiverUrl(raw: string, allowPrivateTargets: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('url: ongeldige URL.');
  }
  if (url.protocol !== 'https:') throw badRequest('url: een webhook-URL moet met https:// beginnen.');
  if (url.username || url.password) throw badRequest('url: inloggegevens in de URL zijn niet toegestaan.');
  // "localhost." is localhost: the trailing dot of a fully qualified name changes nothing.
  const host = bareHost(url.hostname).toLowerCase().replace(/\.+$/, '');
  if (!allowPrivateTargets && (host === 'localhost' || host.endsWith('.localhost'))) {
    throw badRequest('url: localhost is niet toegestaan als webhook-ontvanger.');
  }
  if (net.isIP(host)) {
    const reason = refusalReason(host, { allowPrivateTargets });
    if (reason) throw badRequest(`url: ${host} is een ${reason} en niet toegestaan als webhook-ontvanger.`);
  }
  return url.href;
}

export interface WebhookDeps {
  db: DB;
  allowPrivateTargets: boolean;
  maxPerTenant: number;
  secrets: SecretBox;
}

/**
 * Registers a receiver of the tenant: URL checked, events de-duplicated, secret generated when absent
 * and stored encrypted. Returns the row and the plain secret, which is shown this once.
 */
export async function registerWebhook(deps: WebhookDeps, tenantId: string, input: { url: string; events: WebhookEvent[]; secret?: string }): Promise<{ row: WebhookRow; secret: string }> {
  const url = validateReceiverUrl(input.url, deps.allowPrivateTargets);
  if ((await countWebhooks(deps.db, tenantId)) >= deps.maxPerTenant) {
    throw new TRPCError({ code: 'CONFLICT', message: `Maximaal ${deps.maxPerTenant} webhooks per account: verwijder eerst een webhook die u niet meer gebruikt.` });
  }
  const secret = input.secret ?? generateWebhookSecret();
  const row = await insertWebhook(deps.db, tenantId, url, [...new Set(input.events)], deps.secrets.encrypt(secret));
  return { row, secret };
}

/** Re-encrypts every secret not yet under the current key (a rotation, or rows stored in plain text before). */
export async function reencryptWebhookSecrets(db: DB, secrets: SecretBox): Promise<number> {
  let changed = 0;
  for (const { id, secret } of await allWebhookSecrets(db)) {
    if (secrets.isCurrent(secret)) continue;
    await updateWebhookSecret(db, id, secrets.encrypt(secrets.decrypt(secret)));
    changed += 1;
  }
  return changed;
}

/** A webhook as the API and the operators see it: never the secret. */
export function webhookView(row: WebhookRow) {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as WebhookEvent[],
    enabled: row.enabled === 1,
    last_triggered_at: row.last_triggered_at,
    failure_count: row.failure_count,
    created_at: row.created_at,
  };
}
