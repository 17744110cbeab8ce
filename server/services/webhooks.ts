import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { refusalReason, bareHost } from '../../scanner/address-policy.ts';
import type { DB } from '../../db/database.ts';
import { insertWebhook, type WebhookRow } from '../../db/webhooks.ts';
import { badRequest } from '../errors.ts';
import type { WebhookEvent } from '../vocabulary.ts';

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
  const host = bareHost(url.hostname).toLowerCase();
  if (!allowPrivateTargets && (host === 'localhost' || host.endsWith('.localhost'))) {
    throw badRequest('url: localhost is niet toegestaan als webhook-ontvanger.');
  }
  if (net.isIP(host)) {
    const reason = refusalReason(host, { allowPrivateTargets });
    if (reason) throw badRequest(`url: ${host} is een ${reason} en niet toegestaan als webhook-ontvanger.`);
  }
  return url.href;
}

/** Registers a receiver of the tenant: URL checked, events de-duplicated, secret generated when absent. */
export async function registerWebhook(
  deps: { db: DB; allowPrivateTargets: boolean },
  tenantId: string,
  input: { url: string; events: WebhookEvent[]; secret?: string },
): Promise<WebhookRow> {
  const url = validateReceiverUrl(input.url, deps.allowPrivateTargets);
  return insertWebhook(deps.db, tenantId, url, [...new Set(input.events)], input.secret ?? generateWebhookSecret());
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
