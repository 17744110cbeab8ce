import {
  enabledChannels,
  isUnsubscribed,
  memberAddresses,
  preferencesOf,
  recipientsOfChannels,
  type RuleRow,
} from '../../db/notifications.ts';
import type { DB } from '../../db/database.ts';
import type { ChannelKind, Role, UnsubscribeCategory } from '../../domain/vocabulary.ts';
import type { ServiceDeps } from '../deps.ts';

/** One recipient of a rule's message: an address (e-mail) or a chat channel; `suppressed` says why it gets nothing. */
export interface Target {
  channelId: string | null;
  kind: ChannelKind;
  address: string | null;
  suppressed: string | null;
  /** The recipient's own quiet hours (a member's settings); null without. */
  quiet?: { from: string; to: string; zone: string } | null;
  /** When the recipient's digests arrive (a member's settings); null: at the rule's hour. */
  digestAt?: { hour: number; weekday?: number; zone: string } | null;
}

export const targetKey = (t: Target) => t.address ?? `channel:${t.channelId}`;

/**
 * Who a rule's message goes to: its enabled channels (an e-mail channel's every address) and the
 * members of its roles, each address once. Without SMTP_URL no mail is planned at all. An address
 * that is no member's and not confirmed, or that unsubscribed from this category, is suppressed.
 */
export async function targetsOf(
  db: DB,
  deps: Pick<ServiceDeps, 'config'>,
  tenantId: string,
  rule: Pick<RuleRow, 'channel_ids' | 'roles'>,
  category: UnsubscribeCategory,
  about?: { siteId: string; now: string },
): Promise<Target[]> {
  const mail = Boolean(deps.config.SMTP_URL);
  const channelIds = JSON.parse(rule.channel_ids) as string[];
  const channels = await enabledChannels(db, tenantId, channelIds);
  const members = mail ? await memberAddresses(db, tenantId, JSON.parse(rule.roles) as Role[]) : [];
  const recipients = await recipientsOfChannels(
    db,
    channels.filter((c) => c.kind === 'email').map((c) => c.id),
  );
  const targets: Target[] = [];
  const seen = new Set<string>();
  const add = (target: Target) => {
    const key = targetKey(target);
    if (seen.has(key)) return;
    seen.add(key);
    targets.push(target);
  };
  for (const channel of channels) {
    if (channel.kind !== 'email') add({ channelId: channel.id, kind: channel.kind, address: null, suppressed: null });
    else if (mail)
      for (const r of recipients.filter((x) => x.channel_id === channel.id))
        add({
          channelId: channel.id,
          kind: 'email',
          address: r.address,
          suppressed: r.confirmed_at || members.includes(r.address) ? null : 'adres niet bevestigd',
        });
  }
  for (const address of members) add({ channelId: null, kind: 'email', address, suppressed: null });
  for (const target of targets) {
    if (!target.address || target.suppressed) continue;
    if (await isUnsubscribed(db, tenantId, target.address, category)) {
      target.suppressed = 'afgemeld';
      continue;
    }
    // A member's own settings: a site muted until a date, and personal quiet hours.
    const prefs = await preferencesOf(db, tenantId, target.address);
    const mute = about && prefs.mutes.find((m) => m.site_id === about.siteId && m.until > about.now);
    if (mute) target.suppressed = `site gedempt tot ${mute.until.slice(0, 10)}`;
    target.quiet = prefs.quiet_hours;
    target.digestAt = prefs.digest_at;
  }
  return targets;
}
