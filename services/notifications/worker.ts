import {
  claimNotifications,
  channelById,
  claimOne,
  digestRules,
  dueAlertsLike,
  findNotification,
  dueNotifications,
  enqueueNotifications,
  markDigestSent,
  markItemsSent,
  memberAddresses,
  recordNotification,
  sentSince,
  unsentDigestItems,
  updateChannel,
  type NotificationRow,
  type RuleRow,
} from '../../db/notifications.ts';
import { findUserByEmail } from '../../db/tenancy.ts';
import { insertPasswordReset } from '../../db/notifications.ts';
import { systemClock, type Clock } from '../../infra/clock.ts';
import { MailError, sharedMailer, type Mailer } from '../../infra/mailer.ts';
import { secretBoxFor } from '../../infra/secret-encryption.ts';
import { DASHBOARD_PAGES } from '../../domain/endpoints.ts';
import type { ChannelKind, Severity } from '../../domain/vocabulary.ts';
import type { ServiceDeps } from '../deps.ts';
import type { Logger } from '../logger.ts';
import { PollingWorker } from '../polling-worker.ts';
import { postChat } from './chat-sender.ts';
import { oneTimeToken, publicLink, siteLink, unsubscribeLink } from './links.ts';
import {
  renderChat,
  renderMail,
  type AlertBody,
  type ChangeLine,
  type DigestBody,
  type NotificationBody,
  type PlainBody,
} from './message.ts';
import { foldAlerts } from './plan.ts';
import { targetKey, targetsOf } from './targets.ts';
import { latestSlot, nextSlot } from './zoned-time.ts';

/** How long a reset link works. */
export const RESET_VALID_MS = 30 * 60_000;
/** Where a digest's hour is read when its rule names no zone. */
const DEFAULT_ZONE = 'Europe/Amsterdam';
/** How often the digest hours are looked at. */
const DIGEST_SWEEP_MS = 30_000;

/** The worker's settings from the service's configuration. */
export function notificationWorkerOptions(
  deps: Pick<ServiceDeps, 'config' | 'clock'>,
  workerId: string,
): NotificationWorkerOptions {
  const { config } = deps;
  return {
    workerId,
    leaseMs: config.WEBHOOK_LEASE,
    retrySchedule: config.NOTIFY_RETRY_SCHEDULE,
    pollIntervalMs: config.NOTIFY_POLL_INTERVAL,
    maxPerHour: config.NOTIFY_MAX_PER_HOUR,
    allowPrivateTargets: config.SCANNER_ALLOW_PRIVATE_TARGETS,
    mailer: sharedMailer(config),
    telegramApi: config.NOTIFY_TELEGRAM_API,
    clock: deps.clock,
  };
}

export interface NotificationWorkerOptions {
  workerId: string;
  leaseMs: number;
  retrySchedule: number[];
  pollIntervalMs: number;
  maxPerHour: number;
  allowPrivateTargets: boolean;
  mailer: Mailer | null;
  /** Telegram's Bot API origin; tests point it at a loopback stand-in. */
  telegramApi: string;
  clock?: Clock;
}

type Target = { url: string; token?: string; bot_token?: string; chat_id?: string; addresses?: string[] };

/**
 * Sends the notification outbox: claims due messages with leases (several instances share one
 * database), renders each at send time, retries on NOTIFY_RETRY_SCHEDULE and honours Retry-After;
 * SMTP 5xx and HTTP 404/410 are permanent and disable the channel (its owners get one mail). It also
 * turns digest items into one message per rule and recipient at each digest's hour.
 */
export class NotificationWorker extends PollingWorker {
  private readonly inFlight = new Set<string>();
  private lastSweep = 0;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly options: NotificationWorkerOptions,
    log: Logger,
  ) {
    super(options.pollIntervalMs, log, 'notification delivery');
  }

  protected busy(): boolean {
    return this.inFlight.size > 0;
  }

  private now(): number {
    return (this.options.clock ?? systemClock).now();
  }

  protected async round(): Promise<void> {
    const now = this.now();
    if (now - this.lastSweep >= DIGEST_SWEEP_MS || now < this.lastSweep) {
      this.lastSweep = now;
      await sweepDigests(this.deps, now);
    }
    const free = 16 - this.inFlight.size;
    if (free <= 0) return;
    const at = new Date(now).toISOString();
    const due = await dueNotifications(this.deps.db, at, free, [...this.inFlight]);
    const claimed = await claimNotifications(
      this.deps.db,
      due.map((n) => n.id),
      this.options.workerId,
      at,
      new Date(now + this.options.leaseMs).toISOString(),
    );
    for (const notification of due.filter((n) => claimed.has(n.id))) {
      this.inFlight.add(notification.id);
      void this.deliver(notification)
        .catch((error) => this.log.error({ err: error, notification: notification.id }, 'notification delivery failed'))
        .finally(() => this.inFlight.delete(notification.id));
    }
  }

  /** Claims and sends one message at once (a channel's test button); false when another worker has it. */
  async deliverNow(id: string): Promise<boolean> {
    const leaseUntil = new Date(this.now() + this.options.leaseMs).toISOString();
    if (!(await claimOne(this.deps.db, id, this.options.workerId, leaseUntil))) return false;
    await this.deliver(await findNotification(this.deps.db, id));
    return true;
  }

  private async deliver(n: NotificationRow): Promise<void> {
    const { db } = this.deps;
    const started = this.now();
    const at = new Date(started).toISOString();
    let body = JSON.parse(n.body) as NotificationBody | { kind: 'reset_request' };
    if (body.kind === 'reset_request') {
      const prepared = await this.prepareReset(n, started);
      if (!prepared) {
        await recordNotification(db, {
          id: n.id,
          status: 'suppressed',
          error: 'geen account',
          at,
          nextAttemptAt: null,
        });
        return;
      }
      body = prepared;
    }
    const channel = n.channel_id ? await channelById(db, n.channel_id) : undefined;
    if (n.channel_id && (!channel || channel.enabled !== 1)) {
      await recordNotification(db, {
        id: n.id,
        status: 'suppressed',
        error: 'kanaal uitgeschakeld of verwijderd',
        at,
        nextAttemptAt: null,
      });
      return;
    }
    if (channel && n.category !== 'account' && n.category !== 'test') {
      const sent = await sentSince(db, channel.id, new Date(started - 3_600_000).toISOString());
      if (sent >= this.options.maxPerHour) {
        // Over the hourly limit: it waits, and leaves folded with the others when room returns.
        await recordNotification(db, {
          id: n.id,
          status: 'pending',
          error: 'limiet per uur bereikt',
          at,
          nextAttemptAt: new Date(started + 600_000).toISOString(),
        });
        return;
      }
    }
    if (body.kind === 'alert') body = await this.foldWaiting(n, body, at);
    const outcome =
      channel && channel.kind !== 'email'
        ? await this.sendChat(channel.kind as Exclude<ChannelKind, 'email'>, channel.target, body)
        : await this.sendMail(n, body);
    const retry = this.options.retrySchedule[n.attempts];
    if (outcome.ok) {
      await recordNotification(db, { id: n.id, status: 'sent', error: null, at, nextAttemptAt: null });
      if (channel) await updateChannel(db, channel.id, { failure_count: 0 });
      return;
    }
    if (outcome.permanent || (retry === undefined && outcome.retryAfter === null)) {
      await recordNotification(db, { id: n.id, status: 'failed', error: outcome.error, at, nextAttemptAt: null });
      if (channel && outcome.permanent) await this.disable(channel.id, channel.tenant_id, channel.name, outcome.error);
      return;
    }
    const delay = outcome.retryAfter !== null ? outcome.retryAfter * 1000 : retry!;
    await recordNotification(db, {
      id: n.id,
      status: 'pending',
      error: outcome.error,
      at,
      nextAttemptAt: new Date(started + delay).toISOString(),
    });
    if (channel) await updateChannel(db, channel.id, { failure_count: channel.failure_count + 1 });
  }

  /** Alerts for the same recipient that are due too (held by the hourly limit) leave as this one message. */
  private async foldWaiting(n: NotificationRow, body: AlertBody, at: string): Promise<AlertBody> {
    const others = await dueAlertsLike(this.deps.db, n, at);
    let folded = body;
    for (const other of others) {
      const otherBody = JSON.parse(other.body) as NotificationBody;
      if (otherBody.kind !== 'alert') continue;
      folded = foldAlerts(folded, otherBody);
      await recordNotification(this.deps.db, {
        id: other.id,
        status: 'sent',
        error: `samengevoegd in ${n.id}`,
        at,
        nextAttemptAt: null,
      });
    }
    return folded;
  }

  private async sendMail(n: NotificationRow, body: NotificationBody) {
    const { mailer } = this.options;
    if (!mailer || !n.address)
      return { ok: false, permanent: true, error: 'e-mail staat uit (geen SMTP_URL)', retryAfter: null };
    const { config } = this.deps;
    const category = n.category === 'alerts' || n.category === 'digest' ? n.category : null;
    const unsubscribe =
      category && n.tenant_id
        ? unsubscribeLink(this.deps, { tenantId: n.tenant_id, address: n.address, category })
        : null;
    const mail = renderMail(body, unsubscribe);
    try {
      await mailer.send({
        from: n.category === 'account' ? (config.SMTP_FROM_ACCOUNT ?? config.SMTP_FROM) : config.SMTP_FROM,
        to: n.address,
        ...mail,
        headers: unsubscribe
          ? { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
          : {},
      });
      return { ok: true, permanent: false, error: null, retryAfter: null };
    } catch (error) {
      const mailError = error instanceof MailError ? error : new MailError(String(error), false);
      return { ok: false, permanent: mailError.permanent, error: mailError.message, retryAfter: null };
    }
  }

  private async sendChat(
    kind: Exclude<NotificationRow['category'], never> | string,
    storedTarget: string,
    body: NotificationBody,
  ) {
    const target = JSON.parse(secretBoxFor(this.deps.config).decrypt(storedTarget)) as Target;
    const chatKind = kind as Exclude<Parameters<typeof renderChat>[0], never>;
    const request = renderChat(chatKind, body, { chatId: target.chat_id });
    const url = chatKind === 'telegram' ? `${this.options.telegramApi}/bot${target.bot_token}/sendMessage` : target.url;
    const result = await postChat(url, request, {
      allowPrivateTargets: this.options.allowPrivateTargets,
      bearer: target.token,
      now: this.now(),
    });
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    return {
      ok,
      permanent: result.statusCode === 404 || result.statusCode === 410,
      error: result.error,
      retryAfter: result.statusCode === 429 ? (result.retryAfter ?? 60) : null,
    };
  }

  /** A channel that failed for good is switched off, and its tenant's owners get one mail about it. */
  private async disable(channelId: string, tenantId: string, name: string, reason: string | null): Promise<void> {
    const { db } = this.deps;
    const at = new Date(this.now()).toISOString();
    await updateChannel(db, channelId, { enabled: 0, disabled_reason: reason ?? 'blijvende fout' });
    if (!this.options.mailer) return;
    const body: PlainBody = {
      kind: 'channel_disabled',
      subject: `Meldingskanaal "${name}" is uitgeschakeld`,
      lines: [
        `Het kanaal "${name}" gaf een blijvende fout (${reason ?? 'onbekend'}) en is uitgeschakeld. Controleer het adres en zet het weer aan.`,
      ],
      link: { label: 'Naar Meldingen', url: publicLink(this.deps, DASHBOARD_PAGES.notifications) },
    };
    const owners = await memberAddresses(db, tenantId, ['owner']);
    await enqueueNotifications(
      db,
      owners.map((address) => ({
        tenant_id: tenantId,
        rule_id: null,
        channel_id: null,
        address,
        category: 'account' as const,
        dedupe_key: `channel-disabled:${channelId}:${address}`,
        body,
        next_attempt_at: at,
      })),
      at,
    );
  }

  /** The look-up of a reset request, done here so the request answers alike for every address. */
  private async prepareReset(n: NotificationRow, now: number): Promise<PlainBody | null> {
    const user = n.address ? await findUserByEmail(this.deps.db, n.address) : undefined;
    if (!user || user.blocked_at) return null;
    const { token, hash } = oneTimeToken();
    await insertPasswordReset(this.deps.db, {
      token_hash: hash,
      user_id: user.id,
      expires_at: new Date(now + RESET_VALID_MS).toISOString(),
      created_at: new Date(now).toISOString(),
    });
    return {
      kind: 'reset',
      subject: 'Wachtwoord herstellen',
      lines: [
        'Iemand vroeg om het wachtwoord van dit account te herstellen. Was u dat niet, dan kunt u deze mail negeren.',
        'De link werkt 30 minuten en één keer.',
      ],
      link: {
        label: 'Nieuw wachtwoord instellen',
        url: publicLink(this.deps, `${DASHBOARD_PAGES.passwordReset}#${token}`),
      },
    };
  }
}

const rankOf = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'];

/** The digest of a rule's waiting items: grouped by site and severity. */
function digestOf(
  deps: Pick<ServiceDeps, 'config'>,
  items: Array<{ site: { id: string; name: string; host: string }; line: ChangeLine }>,
  period: string,
): DigestBody {
  const sites = new Map<string, DigestBody['sites'][number]>();
  for (const { site, line } of items) {
    const entry = sites.get(site.id) ?? {
      name: site.name,
      host: site.host,
      link: siteLink(deps, site.id),
      bySeverity: {},
    };
    const lines = entry.bySeverity[line.severity as Severity] ?? [];
    lines.push(line);
    entry.bySeverity[line.severity as Severity] = lines.sort(
      (a, b) => rankOf.indexOf(a.severity) - rankOf.indexOf(b.severity),
    );
    sites.set(site.id, entry);
  }
  return { kind: 'digest', period, sites: [...sites.values()], total: items.length };
}

/**
 * At each digest's hour (its zone's wall clock, so clock changes move nothing), the waiting items of
 * the rule become one message per recipient; nothing waits, nothing is sent.
 */
export async function sweepDigests(deps: ServiceDeps, now: number): Promise<void> {
  for (const rule of await digestRules(deps.db)) {
    const parts: Array<{
      part: 'digest' | 'rest';
      mode: string;
      at: { hour: number; weekday?: number; zone?: string } | null;
      last: string | null;
    }> = [];
    if (rule.mode !== 'immediate')
      parts.push({
        part: 'digest',
        mode: rule.mode,
        at: rule.at ? JSON.parse(rule.at) : null,
        last: rule.last_digest_at,
      });
    if (rule.rest) {
      const rest = JSON.parse(rule.rest) as { mode: string; at: { hour: number; weekday?: number; zone?: string } };
      parts.push({ part: 'rest', mode: rest.mode, at: rest.at, last: rule.last_rest_digest_at });
    }
    for (const { part, mode, at, last } of parts)
      await sweepPart(deps, rule, part, mode, at, last ?? rule.created_at, now);
  }
}

async function sweepPart(
  deps: ServiceDeps,
  rule: RuleRow,
  part: 'digest' | 'rest',
  mode: string,
  at: { hour: number; weekday?: number; zone?: string } | null,
  last: string,
  now: number,
): Promise<void> {
  const zone = at?.zone ?? DEFAULT_ZONE;
  const slot = latestSlot(now, zone, at?.hour ?? 9, mode === 'weekly' ? (at?.weekday ?? 1) : null);
  if (slot <= Date.parse(last)) return;
  const slotIso = new Date(slot).toISOString();
  await deps.db.transaction().execute(async (trx) => {
    const items = await unsentDigestItems(trx, rule.id, part);
    await markDigestSent(trx, rule.id, part, slotIso);
    if (items.length === 0) return;
    const body = digestOf(
      deps,
      items.map((i) => JSON.parse(i.item)),
      mode === 'weekly' ? 'van de week' : 'van de dag',
    );
    const nowIso = new Date(now).toISOString();
    const targets = await targetsOf(trx, deps, rule.tenant_id, rule, 'digest');
    await enqueueNotifications(
      trx,
      targets.map((target) => ({
        tenant_id: rule.tenant_id,
        rule_id: rule.id,
        channel_id: target.channelId,
        address: target.address,
        category: 'digest' as const,
        dedupe_key: `digest:${rule.id}:${part}:${slotIso}:${targetKey(target)}`,
        body,
        // A member who chose their own digest hour gets it then: the next such hour from now.
        next_attempt_at: target.digestAt
          ? new Date(nextSlot(now, target.digestAt, mode === 'weekly')).toISOString()
          : nowIso,
        ...(target.suppressed ? { status: 'suppressed' as const, error: target.suppressed } : {}),
      })),
      nowIso,
    );
    await markItemsSent(
      trx,
      items.map((i) => i.id),
      nowIso,
    );
  });
}
