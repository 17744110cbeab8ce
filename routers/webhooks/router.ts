import { API_PATHS } from '../../domain/endpoints.ts';
import { deleteWebhook, listWebhooks, reenableWebhook, registerWebhook, webhookDeliveries } from '../../services/webhooks.ts';
import { Message, NoInput, PROTECTED_ERRORS, fastParse } from '../common.ts';
import { protectedProcedure, router, userProcedure } from '../trpc.ts';
import { WebhookCreated, WebhookCreateInput, WebhookIdInput, WebhookListOutput } from './schemas.ts';

export const webhooksRouter = router({
  create: protectedProcedure
    .meta({
      permission: 'write_config',
      successStatus: 201,
      openapi: { method: 'POST', path: API_PATHS.webhooks, tags: ['webhooks'], summary: 'Webhook registreren', protect: true, errorResponses: [...PROTECTED_ERRORS, 409] },
    })
    .input(fastParse(WebhookCreateInput))
    .output(fastParse(WebhookCreated))
    .mutation(async ({ ctx, input }) => ({
      webhook: await registerWebhook(ctx, ctx.actor, input),
      message: 'Webhook geregistreerd. Bewaar het geheim veilig: het wordt alleen nu getoond en daarna nooit meer.',
    })),

  list: protectedProcedure
    .meta({
      permission: 'read_config',
      openapi: { method: 'GET', path: API_PATHS.webhooks, tags: ['webhooks'], summary: 'Geregistreerde webhooks weergeven', protect: true, errorResponses: PROTECTED_ERRORS },
    })
    .input(fastParse(NoInput))
    .output(fastParse(WebhookListOutput))
    .query(async ({ ctx }) => ({ webhooks: await listWebhooks(ctx, ctx.actor) })),

  delete: protectedProcedure
    .meta({
      permission: 'write_config',
      openapi: { method: 'DELETE', path: API_PATHS.webhooks, tags: ['webhooks'], summary: 'Webhook verwijderen', protect: true, errorResponses: [...PROTECTED_ERRORS, 404] },
    })
    .input(fastParse(WebhookIdInput))
    .output(fastParse(Message))
    .mutation(async ({ ctx, input }) => {
      await deleteWebhook(ctx, ctx.actor, input.id);
      return { message: 'Webhook verwijderd.' };
    }),

  /** Dashboard only: the delivery log of one webhook. */
  deliveries: userProcedure
    .meta({ permission: 'read_config' })
    .input(fastParse(WebhookIdInput))
    .query(({ ctx, input }) => webhookDeliveries(ctx, ctx.actor, input.id)),

  /** Dashboard only: enable a webhook again after it was switched off. */
  enable: userProcedure
    .meta({ permission: 'write_config' })
    .input(fastParse(WebhookIdInput))
    .mutation(({ ctx, input }) => reenableWebhook(ctx, ctx.actor, input.id)),
});
