import type { z } from 'zod';
import { uuidv7 } from '../../db/ids.ts';
import {
  channelsOfTenant,
  deleteChannel as deleteChannelRow,
  deleteRecipients,
  deliveriesOfTenant,
  enqueueNotifications,
  findChannel,
  findNotification,
  notificationByKey,
  insertChannel,
  insertRecipients,
  isMemberAddress,
  recipientsOfChannels,
  updateChannel,
  type ChannelRow,
  type NotificationRow,
  type RecipientRow,
} from '../../db/notifications.ts';
import { assertPermission, type Actor } from '../../domain/actor.ts';
import { MAIL_PAGES } from '../../domain/endpoints.ts';
import { Invalid, NotFound } from '../../domain/errors.ts';
import type { ChannelKind } from '../../domain/vocabulary.ts';
import { secretBoxFor } from '../../infra/secret-encryption.ts';
import type { ChannelCreateInput, ChannelUpdateInput } from '../../routers/notifications/schemas.ts';
import { isoNow, nowOf, type ServiceDeps } from '../deps.ts';
import { validateReceiverUrl } from '../webhooks.ts';
import { oneTimeToken, publicLink } from './links.ts';
import type { PlainBody } from './message.ts';
import { NotificationWorker, notificationWorkerOptions } from './worker.ts';

/** A test send's failure is its delivery's last_error, which the answer shows: nothing to log. */
const QUIET = { info: () => {}, warn: () => {}, error: () => {} };

type Target = z.infer<typeof ChannelCreateInput>['target'];

/** What may be shown of a target: the host (or the chat) and the last 4 characters, never the URL or token. */
function hintOf(kind: ChannelKind, target: Target): string {
  if ('addresses' in target)
    return `${target.addresses.length} ${target.addresses.length === 1 ? 'adres' : 'adressen'}`;
  if ('bot_token' in target) return `bot …${target.bot_token.slice(-4)}, chat …${target.chat_id.slice(-4)}`;
  const url = new URL(target.url);
  return `${kind === 'ntfy' ? 'ntfy ' : ''}${url.host} …${target.url.slice(-4)}`;
}

/** A target fits its kind, and a chat URL is https (loopback only where the address policy allows it). */
function checkedTarget(deps: ServiceDeps, kind: ChannelKind, target: Target): Target {
  if (kind === 'email') {
    if (!('addresses' in target)) throw new Invalid('target: een e-mailkanaal heeft { addresses: [...] }.');
    if (!deps.config.SMTP_URL) throw new Invalid('kind: e-mail staat uit op deze dienst (geen SMTP_URL).');
    return target;
  }
  if (!deps.config.PUBLIC_URL)
    throw new Invalid(
      'kind: een chatkanaal kan pas als de dienst PUBLIC_URL heeft: de links in berichten wijzen daarheen.',
    );
  if (kind === 'telegram') {
    if (!('bot_token' in target)) throw new Invalid('target: een Telegram-kanaal heeft { bot_token, chat_id }.');
    return target;
  }
  if (!('url' in target)) throw new Invalid(`target: een ${kind}-kanaal heeft { url }.`);
  if ('token' in target && target.token !== undefined && kind !== 'ntfy')
    throw new Invalid('target: alleen ntfy neemt een token.');
  if (new URL(target.url).protocol !== 'https:') throw new Invalid('target.url: alleen https-adressen.');
  return { ...target, url: validateReceiverUrl(target.url, deps.config.SCANNER_ALLOW_PRIVATE_TARGETS) };
}

export function channelView(row: ChannelRow, recipients: RecipientRow[]) {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    target_hint: row.target_hint,
    enabled: row.enabled === 1,
    ...(row.kind === 'email'
      ? {
          recipients: recipients
            .filter((r) => r.channel_id === row.id)
            .map((r) => ({ address: r.address, confirmed: r.confirmed_at !== null })),
        }
      : {}),
    failure_count: row.failure_count,
    disabled_reason: row.disabled_reason,
    created_at: row.created_at,
  };
}

/**
 * The addresses of an e-mail channel: a member's is confirmed at once, any other gets a
 * confirmation mail now and nothing else until it confirms.
 */
async function addRecipients(deps: ServiceDeps, tenantId: string, channelId: string, addresses: string[]) {
  const now = isoNow(deps);
  const known = new Set((await recipientsOfChannels(deps.db, [channelId])).map((r) => r.address));
  for (const address of addresses.filter((a) => !known.has(a))) {
    const member = await isMemberAddress(deps.db, tenantId, address);
    const token = member ? null : oneTimeToken();
    await insertRecipients(deps.db, [
      {
        id: uuidv7(),
        tenant_id: tenantId,
        channel_id: channelId,
        address,
        confirmed_at: member ? now : null,
        token_hash: token?.hash ?? null,
        created_at: now,
      },
    ]);
    if (!token) continue;
    const body: PlainBody = {
      kind: 'confirm_address',
      subject: 'Bevestig dit adres voor beveiligingsmeldingen',
      lines: [
        'Dit adres is opgegeven om meldingen van de beveiligingsscanner te ontvangen.',
        'Pas als u het bevestigt, krijgt het meldingen. Was u dit niet, dan kunt u deze mail negeren.',
      ],
      link: { label: 'Adres bevestigen', url: publicLink(deps, `${MAIL_PAGES.confirmAddress}?token=${token.token}`) },
    };
    await enqueueNotifications(
      deps.db,
      [
        {
          tenant_id: tenantId,
          rule_id: null,
          channel_id: null,
          address,
          category: 'account',
          dedupe_key: `confirm:${channelId}:${address}:${token.hash.slice(0, 16)}`,
          body,
          next_attempt_at: now,
        },
      ],
      now,
    );
  }
}

async function shown(deps: ServiceDeps, row: ChannelRow) {
  return channelView(row, await recipientsOfChannels(deps.db, [row.id]));
}

export async function createChannel(deps: ServiceDeps, actor: Actor, input: z.infer<typeof ChannelCreateInput>) {
  assertPermission(actor, 'write_config');
  const target = checkedTarget(deps, input.kind, input.target);
  const row: ChannelRow = {
    id: uuidv7(),
    tenant_id: actor.tenantId,
    kind: input.kind,
    name: input.name,
    target: secretBoxFor(deps.config).encrypt(JSON.stringify(target)),
    target_hint: hintOf(input.kind, target),
    enabled: 1,
    failure_count: 0,
    disabled_reason: null,
    created_at: isoNow(deps),
  };
  await insertChannel(deps.db, row);
  if ('addresses' in target) await addRecipients(deps, actor.tenantId, row.id, [...new Set(target.addresses)]);
  return shown(deps, row);
}

export async function listChannels(deps: ServiceDeps, actor: Actor) {
  assertPermission(actor, 'read_config');
  const rows = await channelsOfTenant(deps.db, actor.tenantId);
  const recipients = await recipientsOfChannels(
    deps.db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => channelView(row, recipients));
}

async function channelOf(deps: ServiceDeps, actor: Actor, id: string) {
  const row = await findChannel(deps.db, actor.tenantId, id);
  if (!row) throw new NotFound('Kanaal');
  return row;
}

export async function updateChannelSettings(
  deps: ServiceDeps,
  actor: Actor,
  input: z.infer<typeof ChannelUpdateInput>,
) {
  assertPermission(actor, 'write_config');
  const row = await channelOf(deps, actor, input.channel_id);
  const target = input.target ? checkedTarget(deps, row.kind, input.target) : null;
  await updateChannel(deps.db, row.id, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(target
      ? { target: secretBoxFor(deps.config).encrypt(JSON.stringify(target)), target_hint: hintOf(row.kind, target) }
      : {}),
    ...(input.enabled !== undefined
      ? { enabled: input.enabled ? 1 : 0, ...(input.enabled ? { failure_count: 0, disabled_reason: null } : {}) }
      : {}),
  });
  if (target && 'addresses' in target) {
    await deleteRecipients(deps.db, row.id, target.addresses);
    await addRecipients(deps, actor.tenantId, row.id, target.addresses);
  }
  return shown(deps, (await findChannel(deps.db, actor.tenantId, row.id))!);
}

export async function removeChannel(deps: ServiceDeps, actor: Actor, input: { channel_id: string }) {
  assertPermission(actor, 'write_config');
  if (!(await deleteChannelRow(deps.db, actor.tenantId, input.channel_id))) throw new NotFound('Kanaal');
}

/** One test message to the channel (each confirmed address), sent at once; the answer is its delivery. */
export async function testChannel(deps: ServiceDeps, actor: Actor, input: { channel_id: string }) {
  assertPermission(actor, 'write_config');
  const row = await channelOf(deps, actor, input.channel_id);
  const now = isoNow(deps);
  const body: PlainBody = {
    kind: 'test',
    subject: `Testbericht voor "${row.name}"`,
    lines: ['Dit is een testbericht van de beveiligingsscanner: het kanaal werkt.'],
    link: { label: 'Naar Meldingen', url: publicLink(deps, '/meldingen') },
  };
  const recipients =
    row.kind === 'email' ? (await recipientsOfChannels(deps.db, [row.id])).filter((r) => r.confirmed_at) : [];
  const id = uuidv7();
  const key = `test:${row.id}:${id}`;
  await enqueueNotifications(
    deps.db,
    [
      {
        tenant_id: actor.tenantId,
        rule_id: null,
        channel_id: row.id,
        address: recipients[0]?.address ?? null,
        category: 'test',
        dedupe_key: key,
        body,
        // Due in a minute: this request sends it now; a worker only if this process stops before.
        next_attempt_at: new Date(nowOf(deps) + 60_000).toISOString(),
      },
    ],
    now,
  );
  const planned = await notificationByKey(deps.db, key);
  await new NotificationWorker(deps, notificationWorkerOptions(deps, `test:${id}`), QUIET).deliverNow(planned.id);
  return deliveryView(await findNotification(deps.db, planned.id));
}

export function deliveryView(
  row: Pick<
    NotificationRow,
    'id' | 'channel_id' | 'rule_id' | 'status' | 'attempts' | 'last_error' | 'created_at' | 'sent_at'
  >,
) {
  return {
    id: row.id,
    channel_id: row.channel_id,
    rule_id: row.rule_id,
    status: row.status,
    attempts: row.attempts,
    last_error: row.last_error,
    created_at: row.created_at,
    sent_at: row.sent_at,
  };
}

export async function listDeliveries(deps: ServiceDeps, actor: Actor) {
  assertPermission(actor, 'read_config');
  return (await deliveriesOfTenant(deps.db, actor.tenantId, 200)).map(deliveryView);
}
