import { API_PATHS } from '../../domain/endpoints.ts';
import {
  deleteWebhook,
  listWebhooks,
  reenableWebhook,
  registerWebhook,
  webhookDeliveries,
} from '../../services/webhooks.ts';
import { Message, NoInput, PROTECTED_ERRORS } from '../common.ts';
import { operationProcedure, router, userProcedure } from '../trpc.ts';
import { restOperation } from '../operations.ts';
import { WebhookCreated, WebhookCreateInput, WebhookIdInput, WebhookListOutput } from './schemas.ts';

export const createOperation = restOperation({
  meta: {
    permission: 'write_config',
    successStatus: 201,
    openapi: {
      method: 'POST',
      path: API_PATHS.webhooks,
      tags: ['webhooks'],
      summary: 'Webhook registreren',
      protect: true,
      errorResponses: [...PROTECTED_ERRORS, 409],
    },
  },
  input: WebhookCreateInput,
  output: WebhookCreated,
});

export const listOperation = restOperation({
  meta: {
    permission: 'read_config',
    openapi: {
      method: 'GET',
      path: API_PATHS.webhooks,
      tags: ['webhooks'],
      summary: 'Geregistreerde webhooks weergeven',
      protect: true,
      errorResponses: PROTECTED_ERRORS,
    },
  },
  input: NoInput,
  output: WebhookListOutput,
});

export const deleteOperation = restOperation({
  meta: {
    permission: 'write_config',
    openapi: {
      method: 'DELETE',
      path: API_PATHS.webhooks,
      tags: ['webhooks'],
      summary: 'Webhook verwijderen',
      protect: true,
      errorResponses: [...PROTECTED_ERRORS, 404],
    },
  },
  input: WebhookIdInput,
  output: Message,
});

export const webhooksRouter = router({
  create: operationProcedure(createOperation).mutation(async ({ ctx, input }) => ({
    webhook: await registerWebhook(ctx, ctx.actor, input),
    message: 'Webhook geregistreerd. Bewaar het geheim veilig: het wordt alleen nu getoond en daarna nooit meer.',
  })),

  list: operationProcedure(listOperation).query(async ({ ctx }) => ({ webhooks: await listWebhooks(ctx, ctx.actor) })),

  delete: operationProcedure(deleteOperation).mutation(async ({ ctx, input }) => {
    await deleteWebhook(ctx, ctx.actor, input);
    return { message: 'Webhook verwijderd.' };
  }),

  /** Dashboard only: the delivery log of one webhook. */
  deliveries: userProcedure
    .meta({ permission: 'read_config' })
    .input(WebhookIdInput)
    .query(({ ctx, input }) => webhookDeliveries(ctx, ctx.actor, input)),

  /** Dashboard only: enable a webhook again after it was switched off. */
  enable: userProcedure
    .meta({ permission: 'write_config' })
    .input(WebhookIdInput)
    .mutation(({ ctx, input }) => reenableWebhook(ctx, ctx.actor, input)),
});
