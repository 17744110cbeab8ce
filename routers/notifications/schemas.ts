import { z } from 'zod';
import {
  CHANNEL_KINDS,
  NOTIFY_DELIVERY_STATUSES,
  NOTIFY_EVENTS,
  NOTIFY_MODES,
  ROLES,
  SEVERITIES,
} from '../../domain/vocabulary.ts';
import { Count, Id, RequiredUuid, text, Timestamp, Uuid, webUrl } from '../common.ts';

const Address = z
  .email({ message: 'verwacht een e-mailadres' })
  .max(254)
  .transform((a) => a.toLowerCase());

/** Where a channel delivers: its addresses, a webhook URL, an ntfy topic, or a Telegram bot and chat. */
export const ChannelTarget = z.union([
  z.object({ addresses: z.array(Address).min(1).max(20) }).strict(),
  z
    .object({
      bot_token: z
        .string()
        .regex(/^\d{3,12}:[A-Za-z0-9_-]{30,50}$/, { message: 'verwacht een bottoken zoals 123456:AA…' }),
      chat_id: z.string().regex(/^-?\d{1,20}$|^@[A-Za-z0-9_]{5,32}$/, { message: 'verwacht een chat-id' }),
    })
    .strict(),
  z.object({ url: webUrl(['https:', 'http:']), token: z.string().min(1).max(200).optional() }).strict(),
]);

export const ChannelCreateInput = z.object({
  kind: z.enum(CHANNEL_KINDS),
  name: text().trim().min(1).max(100),
  target: ChannelTarget.meta({
    description:
      'email: { addresses }; telegram: { bot_token, chat_id }; ntfy: { url, token? }; slack, teams, discord, mattermost, google_chat: { url }',
  }),
});

export const ChannelIdInput = z.object({ channel_id: RequiredUuid });

export const ChannelUpdateInput = z.object({
  channel_id: RequiredUuid,
  name: text().trim().min(1).max(100).optional(),
  target: ChannelTarget.optional(),
  enabled: z
    .boolean()
    .optional()
    .meta({ description: 'true zet een uitgeschakeld kanaal weer aan (de fouttelling begint opnieuw)' }),
});

export const Channel = z
  .object({
    id: Id,
    kind: z.enum(CHANNEL_KINDS),
    name: z.string(),
    target_hint: z.string().meta({
      description: 'Alleen een hint: de host en de laatste 4 tekens; de volledige URL of het token wordt nooit getoond',
    }),
    enabled: z.boolean(),
    recipients: z
      .array(z.object({ address: z.string(), confirmed: z.boolean() }))
      .optional()
      .meta({ description: 'Alleen bij e-mail: de adressen en of ze bevestigd zijn' }),
    failure_count: Count,
    disabled_reason: z.string().nullable(),
    created_at: Timestamp,
  })
  .meta({ id: 'NotificationChannel' });

export const Delivery = z
  .object({
    id: Id,
    channel_id: z.string().nullable(),
    rule_id: z.string().nullable(),
    status: z.enum(NOTIFY_DELIVERY_STATUSES),
    attempts: Count,
    last_error: z.string().nullable(),
    created_at: Timestamp,
    sent_at: Timestamp.nullable(),
  })
  .meta({ id: 'NotificationDelivery' });

const Hour = z.number().int().min(0).max(23);
const DigestAt = z.object({
  hour: Hour,
  weekday: z
    .number()
    .int()
    .min(0)
    .max(6)
    .optional()
    .meta({ description: '0 zondag, 1 maandag … 6 zaterdag; voor weekly' }),
  zone: z.string().min(1).max(64).optional().meta({ description: 'IANA-tijdzone; standaard Europe/Amsterdam' }),
});
const ClockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'verwacht een tijd zoals 22:00' });
const QuietHours = z.object({ from: ClockTime, to: ClockTime, zone: z.string().min(1).max(64) });

const RuleFields = {
  name: text().trim().min(1).max(100),
  site_ids: z.array(Uuid).max(500).nullable().meta({ description: 'null: alle sites' }),
  min_severity: z.enum(SEVERITIES),
  events: z.array(z.enum(NOTIFY_EVENTS)).min(1).max(NOTIFY_EVENTS.length),
  mode: z.enum(NOTIFY_MODES),
  at: DigestAt.nullable().meta({ description: '{ hour, weekday } voor daily en weekly' }),
  channel_ids: z.array(Uuid).max(50),
  roles: z.array(z.enum(ROLES)).max(ROLES.length),
  quiet_hours: QuietHours.nullable().meta({ description: 'null of { from: "22:00", to: "07:00", zone }' }),
  critical_bypasses_quiet: z.boolean(),
  rest: z
    .object({ mode: z.enum(['daily', 'weekly']), at: DigestAt })
    .nullable()
    .meta({ description: 'Waar wat de regel niet direct stuurt heen gaat (een overzicht); null: nergens' }),
};

export const RuleCreateInput = z.object({
  ...RuleFields,
  site_ids: RuleFields.site_ids.default(null),
  events: RuleFields.events.default(['new', 'regressed']),
  mode: RuleFields.mode.default('immediate'),
  at: RuleFields.at.default(null),
  channel_ids: RuleFields.channel_ids.default([]),
  roles: RuleFields.roles.default([]),
  quiet_hours: RuleFields.quiet_hours.default(null),
  critical_bypasses_quiet: RuleFields.critical_bypasses_quiet.default(true),
  rest: RuleFields.rest.default(null),
});

export const RuleIdInput = z.object({ rule_id: RequiredUuid });

export const RuleUpdateInput = z.object({
  rule_id: RequiredUuid,
  ...Object.fromEntries(Object.entries(RuleFields).map(([key, schema]) => [key, schema.optional()])),
}) as z.ZodObject<
  { rule_id: typeof RequiredUuid } & { [K in keyof typeof RuleFields]: z.ZodOptional<(typeof RuleFields)[K]> }
>;

export const Rule = z.object({ id: Id, ...RuleFields, created_at: Timestamp }).meta({ id: 'NotificationRule' });

export const ChannelOutput = z.object({ channel: Channel });
export const ChannelListOutput = z.object({ channels: z.array(Channel) });
export const RuleOutput = z.object({ rule: Rule });
export const RuleListOutput = z.object({ rules: z.array(Rule) });
export const DeliveryOutput = z.object({ delivery: Delivery });
export const DeliveryListOutput = z.object({ deliveries: z.array(Delivery) });
