import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { refusalReason, bareHost } from '../../scanner/address-policy.ts';
import { badRequest } from '../errors.ts';

export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * A receiver URL must be https and must not name a local or internal host literally. No DNS look-up
 * happens here: the delivery applies the connect-time guard to the resolved address.
 */
export function validateReceiverUrl(raw: string, allowPrivateTargets: boolean): string {
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
