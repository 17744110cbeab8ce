import { refusalIn } from '../../scanner/errors.ts';
import { guardedAgents, guardedGot, type GuardedAgents } from '../../scanner/net/guarded-http.ts';
import { signWebhook } from './signature.ts';

export const DELIVERY_TIMEOUT_MS = 15_000;

export interface SendResult {
  statusCode: number | null;
  error: string | null;
}

export interface WebhookRequest {
  url: string;
  secret: string;
  messageId: string;
  body: string;
}

const agents = new Map<boolean, GuardedAgents>();

/** Kept-alive connections per address policy: deliveries to one receiver (a webhook, a chat platform) reuse them. */
export function agentsFor(allowPrivateTargets: boolean): GuardedAgents {
  let found = agents.get(allowPrivateTargets);
  if (!found) {
    found = guardedAgents({ allowPrivateTargets }, { keepAlive: true });
    agents.set(allowPrivateTargets, found);
  }
  return found;
}

/**
 * One delivery attempt: POST the signed body, no redirects, a 15 s bound, and the scanner's
 * connect-time address guard on the resolved receiver address.
 */
export async function sendWebhook(request: WebhookRequest, allowPrivateTargets: boolean): Promise<SendResult> {
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    const url = new URL(request.url);
    if (url.protocol !== 'https:') return { statusCode: null, error: 'alleen https-ontvangers' };
    const response = await guardedGot.post(url, {
      body: request.body,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'WebsiteSecurityScanner-Webhooks/1.0',
        'webhook-id': request.messageId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(request.secret, request.messageId, timestamp, request.body),
      },
      agent: agentsFor(allowPrivateTargets),
      timeout: { request: DELIVERY_TIMEOUT_MS },
    });
    return { statusCode: response.statusCode, error: null };
  } catch (error) {
    const refusal = refusalIn(error);
    return {
      statusCode: null,
      error: refusal ? refusal.message : ((error as { code?: string }).code ?? (error as Error).message),
    };
  }
}
