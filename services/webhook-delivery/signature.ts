import { createHmac } from 'node:crypto';

/** Standard Webhooks signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body"> keyed by the secret's bytes. */
export function signWebhook(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}
