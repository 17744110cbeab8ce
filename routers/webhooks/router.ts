import { deleteWebhook, insertWebhook, listWebhooks, type WebhookRow } from '../../db/webhooks.ts';
import { notFound } from '../../server/errors.ts';
import { generateWebhookSecret, validateReceiverUrl } from '../../server/services/webhook-registration.ts';
import type { WebhookEvent } from '../../server/vocabulary.ts';
import { Message, NoInput, PROTECTED_ERRORS } from '../common.ts';
import { featureProcedure, router } from '../trpc.ts';
import { WebhookCreated, WebhookCreateInput, WebhookDeleteInput, WebhookListOutput } from './schemas.ts';

const webhooksEnabled = featureProcedure('webhooks');

const view = (row: WebhookRow) => ({
  id: row.id,
  url: row.url,
  events: JSON.parse(row.events) as WebhookEvent[],
  enabled: row.enabled === 1,
  created_at: row.created_at,
});

export const webhooksRouter = router({
  create: webhooksEnabled
    .meta({
      permission: 'write_config',
      successStatus: 201,
      openapi: { method: 'POST', path: '/api/agent/webhooks', tags: ['webhooks'], summary: 'Webhook registreren', protect: true, errorResponses: PROTECTED_ERRORS },
    })
    .input(WebhookCreateInput)
    .output(WebhookCreated)
    .mutation(async ({ ctx, input }) => {
      const url = validateReceiverUrl(input.url, ctx.config.SCANNER_ALLOW_PRIVATE_TARGETS);
      const events = [...new Set(input.events)];
      const row = await insertWebhook(ctx.db, ctx.principal.tenantId, url, events, input.secret ?? generateWebhookSecret());
      return {
        webhook: { ...view(row), secret: row.secret },
        message: 'Webhook geregistreerd. Bewaar het geheim veilig: het wordt alleen nu getoond en daarna nooit meer.',
      };
    }),

  list: webhooksEnabled
    .meta({
      permission: 'read_config',
      openapi: { method: 'GET', path: '/api/agent/webhooks', tags: ['webhooks'], summary: 'Geregistreerde webhooks weergeven', protect: true, errorResponses: PROTECTED_ERRORS },
    })
    .input(NoInput)
    .output(WebhookListOutput)
    .query(async ({ ctx }) => ({
      webhooks: (await listWebhooks(ctx.db, ctx.principal.tenantId)).map((row) => ({ ...view(row), last_triggered_at: row.last_triggered_at, failure_count: row.failure_count })),
    })),

  delete: webhooksEnabled
    .meta({
      permission: 'write_config',
      openapi: { method: 'DELETE', path: '/api/agent/webhooks', tags: ['webhooks'], summary: 'Webhook verwijderen', protect: true, errorResponses: [...PROTECTED_ERRORS, 404] },
    })
    .input(WebhookDeleteInput)
    .output(Message)
    .mutation(async ({ ctx, input }) => {
      if (!(await deleteWebhook(ctx.db, ctx.principal.tenantId, input.id))) throw notFound('Webhook');
      return { message: 'Webhook verwijderd.' };
    }),
});
