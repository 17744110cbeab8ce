import type { z } from 'zod';
import { API_PATHS } from '../../domain/endpoints.ts';
import type { Permission } from '../../domain/vocabulary.ts';
import {
  createChannel,
  listChannels,
  listDeliveries,
  removeChannel,
  testChannel,
  updateChannelSettings,
} from '../../services/notifications/channels.ts';
import { changeRule, createRule, listRules, removeRule } from '../../services/notifications/rules.ts';
import { previewRules } from '../../services/notifications/preview.ts';
import { Message, NoInput, PROTECTED_ERRORS } from '../common.ts';
import { restOperation } from '../operations.ts';
import { operationProcedure, router, userProcedure } from '../trpc.ts';
import {
  ChannelCreateInput,
  ChannelIdInput,
  ChannelListOutput,
  ChannelOutput,
  ChannelUpdateInput,
  DeliveryListOutput,
  DeliveryOutput,
  RuleCreateInput,
  RuleIdInput,
  RuleListOutput,
  RuleOutput,
  RuleUpdateInput,
} from './schemas.ts';

// Notification channels and rules: REST and the dashboard, never MCP tools (a scanned page must not
// be able to talk an agent into silencing alerts). Reading needs read_config, changing write_config.

function operation<I extends z.ZodType, O extends z.ZodType>(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: `/${string}`,
  summary: string,
  input: I,
  output: O,
  created = false,
) {
  const permission: Permission = method === 'GET' ? 'read_config' : 'write_config';
  return restOperation({
    meta: {
      permission,
      ...(created ? { successStatus: 201 as const } : {}),
      openapi: {
        method,
        path,
        tags: ['notifications'],
        summary,
        protect: true,
        errorResponses: path.includes('{') ? [...PROTECTED_ERRORS, 404] : PROTECTED_ERRORS,
      },
    },
    input,
    output,
  });
}

export const channelCreateOperation = operation(
  'POST',
  API_PATHS.notification_channels,
  'Meldingskanaal toevoegen',
  ChannelCreateInput,
  ChannelOutput,
  true,
);
export const channelListOperation = operation(
  'GET',
  API_PATHS.notification_channels,
  'Meldingskanalen weergeven',
  NoInput,
  ChannelListOutput,
);
export const channelUpdateOperation = operation(
  'PATCH',
  API_PATHS.notification_channel,
  'Meldingskanaal wijzigen',
  ChannelUpdateInput,
  ChannelOutput,
);
export const channelDeleteOperation = operation(
  'DELETE',
  API_PATHS.notification_channel,
  'Meldingskanaal verwijderen',
  ChannelIdInput,
  Message,
);
export const channelTestOperation = operation(
  'POST',
  API_PATHS.notification_channel_test,
  'Testbericht naar een kanaal sturen',
  ChannelIdInput,
  DeliveryOutput,
);
export const ruleCreateOperation = operation(
  'POST',
  API_PATHS.notification_rules,
  'Meldingsregel toevoegen',
  RuleCreateInput,
  RuleOutput,
  true,
);
export const ruleListOperation = operation(
  'GET',
  API_PATHS.notification_rules,
  'Meldingsregels weergeven',
  NoInput,
  RuleListOutput,
);
export const ruleUpdateOperation = operation(
  'PATCH',
  API_PATHS.notification_rule,
  'Meldingsregel wijzigen',
  RuleUpdateInput,
  RuleOutput,
);
export const ruleDeleteOperation = operation(
  'DELETE',
  API_PATHS.notification_rule,
  'Meldingsregel verwijderen',
  RuleIdInput,
  Message,
);
export const deliveryListOperation = operation(
  'GET',
  API_PATHS.notification_deliveries,
  'Verzonden en geplande meldingen',
  NoInput,
  DeliveryListOutput,
);

export const notificationsRouter = router({
  createChannel: operationProcedure(channelCreateOperation).mutation(async ({ ctx, input }) => ({
    channel: await createChannel(ctx, ctx.actor, input),
  })),
  listChannels: operationProcedure(channelListOperation).query(async ({ ctx }) => ({
    channels: await listChannels(ctx, ctx.actor),
  })),
  updateChannel: operationProcedure(channelUpdateOperation).mutation(async ({ ctx, input }) => ({
    channel: await updateChannelSettings(ctx, ctx.actor, input),
  })),
  deleteChannel: operationProcedure(channelDeleteOperation).mutation(async ({ ctx, input }) => {
    await removeChannel(ctx, ctx.actor, input);
    return { message: 'Kanaal verwijderd.' };
  }),
  testChannel: operationProcedure(channelTestOperation).mutation(async ({ ctx, input }) => ({
    delivery: await testChannel(ctx, ctx.actor, input),
  })),
  createRule: operationProcedure(ruleCreateOperation).mutation(async ({ ctx, input }) => ({
    rule: await createRule(ctx, ctx.actor, input),
  })),
  listRules: operationProcedure(ruleListOperation).query(async ({ ctx }) => ({
    rules: await listRules(ctx, ctx.actor),
  })),
  updateRule: operationProcedure(ruleUpdateOperation).mutation(async ({ ctx, input }) => ({
    rule: await changeRule(ctx, ctx.actor, input),
  })),
  deleteRule: operationProcedure(ruleDeleteOperation).mutation(async ({ ctx, input }) => {
    await removeRule(ctx, ctx.actor, input);
    return { message: 'Regel verwijderd.' };
  }),
  deliveries: operationProcedure(deliveryListOperation).query(async ({ ctx }) => ({
    deliveries: await listDeliveries(ctx, ctx.actor),
  })),

  /** Dashboard only: what each rule would have sent for the latest scans, and to whom. */
  preview: userProcedure.meta({ permission: 'read_config' }).query(({ ctx }) => previewRules(ctx, ctx.actor)),
});
