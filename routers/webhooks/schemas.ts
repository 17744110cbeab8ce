import { z } from 'zod';
import { WEBHOOK_EVENTS } from '../../domain/vocabulary.ts';
import { Count, Id, RequiredUuid, webUrl, Timestamp } from '../common.ts';

/** Standard Webhooks secret: "whsec_" + base64 of 24 to 64 random bytes. */
export const WebhookSecret = z
  .string()
  .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, { message: 'Ongeldig geheim: verwacht whsec_ gevolgd door base64' })
  .refine(
    (secret) => {
      const bytes = Buffer.from(secret.slice(6), 'base64').length;
      return bytes >= 24 && bytes <= 64;
    },
    { message: 'Ongeldig geheim: het base64-deel moet 24 tot 64 bytes bevatten' },
  );

export const WebhookCreateInput = z.object({
  url: webUrl(['https:']).meta({ description: 'HTTPS-URL die meldingen ontvangt' }),
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1).max(WEBHOOK_EVENTS.length),
  secret: WebhookSecret.optional().meta({
    description: 'Ondertekeningsgeheim (whsec_…); wordt gegenereerd als het ontbreekt',
  }),
});

const WebhookBase = z.object({
  id: Id,
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  enabled: z.boolean(),
  created_at: Timestamp,
});

export const WebhookCreated = z.object({
  webhook: WebhookBase.extend({ secret: z.string() }).meta({ id: 'WebhookCreated' }),
  message: z.string(),
});

export const WebhookListOutput = z.object({
  webhooks: z.array(
    WebhookBase.extend({ last_triggered_at: Timestamp.nullable(), failure_count: Count }).meta({ id: 'Webhook' }),
  ),
});

export const WebhookIdInput = z.object({ id: RequiredUuid });
