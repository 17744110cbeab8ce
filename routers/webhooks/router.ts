import { deleteWebhook, listWebhooks } from '../../db/webhooks.ts';
import { notFound } from '../../domain/errors.ts';
import { secretBoxFor } from '../../services/secrets.ts';
import { registerWebhook, webhookView, type WebhookDeps } from '../../services/webhooks.ts';
import type { Deps } from '../context.ts';
import { Message, NoInput, PROTECTED_ERRORS } from '../common.ts';
import { featureProcedure, router } from '../trpc.ts';
import { WebhookCreated, WebhookCreateInput, WebhookDeleteInput, WebhookListOutput } from './schemas.ts';

const webhooksEnabled = featureProcedure('webhooks');

const webhookDeps = ({ db, config }: Deps): WebhookDeps => ({
  db,
  allowPrivateTargets: config.SCANNER_ALLOW_PRIVATE_TARGETS,
  maxPerTenant: config.MAX_WEBHOOKS_PER_TENANT,
  secrets: secretBoxFor(config),
});

export const webhooksRouter = router({
  create: webhooksEnabled
    .meta({
      permission: 'write_config',
      successStatus: 201,
      openapi: { method: 'POST', path: '/api/agent/webhooks', tags: ['webhooks'], summary: 'Webhook registreren', protect: true, errorResponses: [...PROTECTED_ERRORS, 409] },
    })
    .input(WebhookCreateInput)
    .output(WebhookCreated)
    .mutation(async ({ ctx, input }) => {
      const { row, secret } = await registerWebhook(webhookDeps(ctx), ctx.principal.tenantId, input);
      const { last_triggered_at: _triggered, failure_count: _failures, ...created } = webhookView(row);
      return {
        webhook: { ...created, secret },
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
      webhooks: (await listWebhooks(ctx.db, ctx.principal.tenantId)).map(webhookView),
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
