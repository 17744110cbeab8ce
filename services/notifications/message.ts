import type { ChannelKind, Severity } from '../../domain/vocabulary.ts';
import { SEVERITIES } from '../../domain/vocabulary.ts';
import { displayText } from '../../scanner/report/display-text.ts';

/**
 * What a notification carries, stored in the outbox and rendered at send time. Only names, hosts,
 * catalog titles, severities, change kinds, counts, dates and dashboard links: never a found value,
 * evidence, a header, a body or any part of a secret (docs/notifications.md).
 */
export interface ChangeLine {
  title: string;
  severity: Severity;
  change: string;
  /** Regressed more than 3 times in 7 days. */
  unstable?: boolean;
}

export type SeverityTally = Record<Severity, number>;

export interface AlertBody {
  kind: 'alert';
  site: { name: string; host: string; link: string };
  /** The site's first scan: one summary instead of its backlog. */
  first: boolean;
  lines: ChangeLine[];
  /** Changes beyond the lines shown. */
  more: number;
  counts: { new: number; regressed: number; resolved: number; other: number };
  open: SeverityTally;
  scan_link: string;
  scanned_at: string;
  /** Messages folded into this one (quiet hours, the hourly limit). */
  folded?: number;
}

export interface DigestBody {
  kind: 'digest';
  period: string;
  sites: Array<{ name: string; host: string; link: string; bySeverity: Partial<Record<Severity, ChangeLine[]>> }>;
  total: number;
}

export interface PlainBody {
  kind:
    | 'test'
    | 'confirm_address'
    | 'reset'
    | 'reset_done'
    | 'signup_confirm'
    | 'signup_exists'
    | 'invite'
    | 'channel_disabled';
  /** Dutch lines of text; the first is the subject. */
  subject: string;
  lines: string[];
  /** The one link the message is about, under PUBLIC_URL. */
  link?: { label: string; url: string };
}

export type NotificationBody = AlertBody | DigestBody | PlainBody;

/** The longest user or site name a message shows, and the most lines an alert lists. */
export const MAX_NAME = 100;
export const MAX_LINES = 10;
const MAX_TITLE = 200;

export const shownName = (name: string) => displayText(name, MAX_NAME);
export const shownTitle = (title: string) => displayText(title, MAX_TITLE);

const CHANGE_WORDS: Record<string, string> = {
  new: 'nieuw',
  regressed: 'terug',
  severity_up: 'ernstiger',
  escalated: 'verergerd',
  resolved: 'opgelost',
  scan_failed: 'scan mislukt',
  expiry_warning: 'verloopt binnenkort',
  risk_acceptance_expiring: 'acceptatie verloopt',
  risk_acceptance_expired: 'acceptatie verlopen',
};

const lineText = (line: ChangeLine) =>
  `${line.severity} ${line.title} (${CHANGE_WORDS[line.change] ?? line.change}${line.unstable ? ', instabiel' : ''})`;

/** The message as subject and plain lines, for every renderer to format. */
export function textOf(body: NotificationBody): {
  subject: string;
  lines: string[];
  link: { label: string; url: string };
} {
  if (body.kind === 'alert') {
    const { counts } = body;
    const parts = [
      counts.new > 0 ? `${counts.new} nieuw` : '',
      counts.regressed > 0 ? `${counts.regressed} terug` : '',
      counts.resolved > 0 ? `${counts.resolved} opgelost` : '',
      counts.other > 0 ? `${counts.other} gewijzigd` : '',
    ].filter(Boolean);
    const subject = body.first
      ? `Eerste scan van ${body.site.name}: ${SEVERITIES.map((s) => `${body.open[s]} ${s}`).join(', ')}`
      : `${body.site.name}: ${parts.join(', ')}`;
    const open = SEVERITIES.map((s) => `${s} ${body.open[s]}`).join(', ');
    return {
      subject,
      lines: [
        `Site: ${body.site.name} (${body.site.host})`,
        ...body.lines.map(lineText),
        ...(body.more > 0 ? [`… en ${body.more} meer`] : []),
        `Open bevindingen: ${open}`,
        ...(body.folded ? [`${body.folded} meldingen samengevoegd in dit bericht.`] : []),
      ],
      link: { label: 'Bekijk de scan in het dashboard', url: body.scan_link },
    };
  }
  if (body.kind === 'digest') {
    const lines: string[] = [];
    for (const site of body.sites) {
      lines.push(`${site.name} (${site.host})`);
      for (const severity of SEVERITIES)
        for (const line of site.bySeverity[severity] ?? []) lines.push(`  ${lineText(line)}`);
    }
    return {
      subject: `Overzicht ${body.period}: ${body.total} ${body.total === 1 ? 'wijziging' : 'wijzigingen'}`,
      lines,
      link: { label: 'Naar het dashboard', url: body.sites[0]?.link ?? '' },
    };
  }
  return { subject: body.subject, lines: body.lines, link: body.link ?? { label: '', url: '' } };
}

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A mail's subject, text and HTML. */
export function renderMail(body: NotificationBody, unsubscribeUrl: string | null) {
  const { subject, lines, link } = textOf(body);
  const footer = unsubscribeUrl ? [`Afmelden voor deze berichten: ${unsubscribeUrl}`] : [];
  const text = [...lines, '', ...(link.url ? [`${link.label}: ${link.url}`] : []), '', ...footer].join('\n');
  const html = [
    '<!doctype html><html lang="nl"><body>',
    ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    link.url ? `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>` : '',
    unsubscribeUrl ? `<p><small><a href="${escapeHtml(unsubscribeUrl)}">Afmelden</a></small></p>` : '',
    '</body></html>',
  ].join('');
  return { subject: `[Beveiligingsscan] ${subject}`.slice(0, 200), text, html };
}

/** Mentions made inert: an at sign that no chat platform reads as a mention. */
const inert = (text: string) => text.replaceAll('@', '＠');
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The HTTP request a chat platform takes: its JSON (or text) body, within the platform's limits. */
export interface ChatRequest {
  body: string;
  contentType: string;
  headers?: Record<string, string>;
}

/** Renders a message for a chat platform, escaped for its format and bounded by its limits. */
export function renderChat(
  kind: Exclude<ChannelKind, 'email'>,
  body: NotificationBody,
  extra: { chatId?: string } = {},
): ChatRequest {
  const { subject, lines, link } = textOf(body);
  const json = (value: unknown): ChatRequest => ({ body: JSON.stringify(value), contentType: 'application/json' });
  if (kind === 'slack') {
    const mrkdwn = (t: string) => t.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
    return json({
      text: cut(mrkdwn(subject), 150),
      blocks: [
        // plain_text reads no mentions; angle brackets become look-alikes all the same.
        {
          type: 'header',
          text: { type: 'plain_text', text: cut(subject.replace(/</g, '‹').replace(/>/g, '›'), 150), emoji: false },
        },
        {
          type: 'section',
          // verbatim: no automatic links, so a site's host in the text is no link to the site.
          text: { type: 'mrkdwn', text: cut(lines.map(mrkdwn).join('\n'), 3000), verbatim: true },
        },
        ...(link.url
          ? [
              {
                type: 'actions',
                elements: [{ type: 'button', text: { type: 'plain_text', text: cut(link.label, 75) }, url: link.url }],
              },
            ]
          : []),
      ].slice(0, 50),
    });
  }
  if (kind === 'teams')
    return json({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              { type: 'TextBlock', text: cut(inert(subject), 400), weight: 'Bolder', size: 'Medium', wrap: true },
              ...lines.slice(0, 40).map((line) => ({ type: 'TextBlock', text: cut(inert(line), 1000), wrap: true })),
            ],
            actions: link.url ? [{ type: 'Action.OpenUrl', title: cut(link.label, 100), url: link.url }] : [],
          },
        },
      ],
    });
  if (kind === 'discord')
    return json({
      content: cut(inert(subject), 2000),
      embeds: [
        {
          title: cut(inert(subject), 256),
          description: cut(inert(lines.join('\n')), 4096),
          ...(link.url ? { url: link.url } : {}),
        },
      ],
      allowed_mentions: { parse: [] },
    });
  if (kind === 'mattermost')
    return json({
      text: cut(
        inert([`#### ${subject}`, ...lines, link.url ? `[${link.label}](${link.url})` : ''].join('\n')),
        16_000,
      ),
    });
  if (kind === 'google_chat')
    return json({
      text: cut(
        [
          `*${inert(subject).replace(/[<>]/g, '')}*`,
          ...lines.map((l) => inert(l).replace(/[<>]/g, '')),
          link.url ? `<${link.url}|${link.label}>` : '',
        ].join('\n'),
        4000,
      ),
    });
  if (kind === 'ntfy')
    return {
      body: cut(lines.join('\n'), 3500),
      contentType: 'text/plain; charset=utf-8',
      headers: {
        // Headers are Latin-1: RFC 2047 keeps a Dutch subject intact.
        title: `=?UTF-8?B?${Buffer.from(cut(subject, 200)).toString('base64')}?=`,
        ...(link.url ? { click: link.url } : {}),
        tags: 'shield',
      },
    };
  return json({
    chat_id: extra.chatId,
    // The text is cut before the tags are added, so no tag is ever cut in two.
    text: [
      `<b>${escapeHtml(cut(inert(subject), 200))}</b>`,
      // Cut after escaping (an escaped text is longer), never inside an entity.
      cut(escapeHtml(inert(lines.join('\n'))), 3_500).replace(/&[#a-z0-9]{0,6}…$/, '…'),
      link.url ? `<a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a>` : '',
    ].join('\n'),
    parse_mode: 'HTML',
    link_preview_options: { is_disabled: true },
  });
}
