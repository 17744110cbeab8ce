import type { DB } from '../../db/database.ts';
import {
  enqueueNotifications,
  insertDigestItems,
  openTotalsOfSite,
  regressionsSince,
  replaceBody,
  rulesOfTenant,
  waitingNotification,
  type RuleRow,
} from '../../db/notifications.ts';
import { SEVERITIES, type NotifyEvent, type Severity, type WebhookEvent } from '../../domain/vocabulary.ts';
import { enqueueEvents } from '../../db/outbox.ts';
import { findSite } from '../../db/sites.ts';
import type { ServiceDeps } from '../deps.ts';
import { siteLink, publicLink } from './links.ts';
import { MAX_LINES, shownName, shownTitle, type AlertBody, type ChangeLine } from './message.ts';
import { targetKey, targetsOf } from './targets.ts';
import { quietUntil } from './zoned-time.ts';
import { dashboardPath, DASHBOARD_PAGES } from '../../domain/endpoints.ts';

/** One change a scan made to a finding, as rules judge it. */
export interface FindingChangeNotice {
  findingId: string;
  title: string;
  severity: Severity;
  event: NotifyEvent;
}

export interface ScanNotice {
  scanId: string;
  scannedAt: string;
  /** The site's first scan: its findings are a backlog, sent as one summary. */
  first: boolean;
  site: { id: string; name: string; url: string };
  changes: FindingChangeNotice[];
}

/** More regressions than this in UNSTABLE_DAYS make a finding "instabiel": it goes to the digest. */
const UNSTABLE_AFTER = 3;
const UNSTABLE_DAYS = 7;
const rank = (severity: Severity) => SEVERITIES.indexOf(severity);

/** Findings that regressed more than UNSTABLE_AFTER times in UNSTABLE_DAYS. */
async function unstableFindings(trx: DB, ids: string[], now: string): Promise<Set<string>> {
  const since = new Date(Date.parse(now) - UNSTABLE_DAYS * 86_400_000).toISOString();
  const counts = await regressionsSince(trx, ids, since);
  return new Set([...counts].filter(([, n]) => n > UNSTABLE_AFTER).map(([id]) => id));
}

const lineOf = (c: FindingChangeNotice, unstable: boolean): ChangeLine => ({
  title: shownTitle(c.title),
  severity: c.severity,
  change: c.event,
  ...(unstable ? { unstable: true } : {}),
});

const byWeight = (a: ChangeLine, b: ChangeLine) => rank(a.severity) - rank(b.severity);

/** Folds one alert into another that waits for the same recipient (quiet hours): one message when they end. */
export function foldAlerts(into: AlertBody, more: AlertBody): AlertBody {
  const lines = [...into.lines, ...more.lines].sort(byWeight);
  return {
    ...more,
    first: into.first && more.first,
    lines: lines.slice(0, MAX_LINES),
    more: into.more + more.more + Math.max(0, lines.length - MAX_LINES),
    counts: {
      new: into.counts.new + more.counts.new,
      regressed: into.counts.regressed + more.counts.regressed,
      resolved: into.counts.resolved + more.counts.resolved,
      other: into.counts.other + more.counts.other,
    },
    folded: (into.folded ?? 1) + (more.folded ?? 1),
  };
}

/** When a rule's message may leave: now, or when its quiet hours end (CRITICAL passes where the rule says so). */
function leavesAt(rule: RuleRow, severities: Severity[], now: string): number | null {
  const quiet = rule.quiet_hours ? (JSON.parse(rule.quiet_hours) as { from: string; to: string; zone: string }) : null;
  const bypass = rule.critical_bypasses_quiet === 1 && severities.includes('CRITICAL');
  return quiet && !bypass ? quietUntil(Date.parse(now), quiet) : null;
}

/** Whether a rule counts a change: one of its events, at its lowest severity or above (its sites are the caller's). */
export function ruleCounts(
  rule: Pick<RuleRow, 'events' | 'min_severity'>,
  change: { event: NotifyEvent; severity: Severity },
) {
  const events = JSON.parse(rule.events) as NotifyEvent[];
  return events.includes(change.event) && rank(change.severity) <= rank(rule.min_severity);
}

/**
 * Plans what one scan tells people, in the scan's transaction (so a crash loses nothing): per rule,
 * one message per recipient with the scan's matching changes, or digest items for its hour; what a
 * rule does not send at once goes to its rest digest. Nothing matches, nothing is planned.
 */
export async function planScanNotifications(
  trx: DB,
  deps: Pick<ServiceDeps, 'config'>,
  tenantId: string,
  notice: ScanNotice,
  now: string,
): Promise<void> {
  if (notice.changes.length === 0) return;
  const rules = await rulesOfTenant(trx, tenantId);
  if (rules.length === 0) return;
  const unstable = await unstableFindings(
    trx,
    notice.changes.filter((c) => c.event === 'regressed').map((c) => c.findingId),
    now,
  );
  const open = await openTotalsOfSite(trx, notice.site.id);
  for (const rule of rules) {
    const sites = rule.site_ids ? (JSON.parse(rule.site_ids) as string[]) : null;
    if (sites && !sites.includes(notice.site.id)) continue;
    const matched = notice.changes.filter((c) => ruleCounts(rule, c) && !unstable.has(c.findingId));
    const rest = notice.changes.filter((c) => !matched.includes(c));
    const item = (c: FindingChangeNotice) => ({
      site: { id: notice.site.id, name: shownName(notice.site.name), host: new URL(notice.site.url).host },
      line: lineOf(c, unstable.has(c.findingId)),
    });
    // The first scan's backlog is the summary itself, not material for a digest.
    if (rule.rest && !notice.first)
      await insertDigestItems(
        trx,
        rest.map((c) => ({
          tenant_id: tenantId,
          rule_id: rule.id,
          part: 'rest' as const,
          item: item(c),
          created_at: now,
        })),
      );
    if (matched.length === 0) continue;
    if (rule.mode !== 'immediate') {
      await insertDigestItems(
        trx,
        matched.map((c) => ({
          tenant_id: tenantId,
          rule_id: rule.id,
          part: 'digest' as const,
          item: item(c),
          created_at: now,
        })),
      );
      continue;
    }
    const lines = matched.map((c) => lineOf(c, false)).sort(byWeight);
    const count = (event: NotifyEvent) => matched.filter((c) => c.event === event).length;
    const body: AlertBody = {
      kind: 'alert',
      site: {
        name: shownName(notice.site.name),
        host: new URL(notice.site.url).host,
        link: siteLink(deps, notice.site.id),
      },
      first: notice.first,
      lines: lines.slice(0, MAX_LINES),
      more: Math.max(0, lines.length - MAX_LINES),
      counts: {
        new: count('new'),
        regressed: count('regressed'),
        resolved: count('resolved'),
        other: matched.length - count('new') - count('regressed') - count('resolved'),
      },
      open,
      scan_link: publicLink(deps, `${dashboardPath(DASHBOARD_PAGES.site, notice.site.id)}?scan=${notice.scanId}`),
      scanned_at: notice.scannedAt,
    };
    const severities = matched.map((c) => c.severity);
    await sendAlert(trx, deps, tenantId, rule, body, `alert:${notice.scanId}`, {
      until: leavesAt(rule, severities, now),
      now,
      siteId: notice.site.id,
      severities,
    });
  }
}

/**
 * One alert of a rule to each of its recipients: at once (suppressed where the address may not get
 * it), or deferred to the end of quiet hours, folded into what already waits for that recipient.
 */
async function sendAlert(
  trx: DB,
  deps: Pick<ServiceDeps, 'config'>,
  tenantId: string,
  rule: RuleRow,
  body: AlertBody,
  key: string,
  when: { until: number | null; now: string; siteId: string; severities: Severity[] },
): Promise<void> {
  const { until: ruleUntil, now, siteId, severities } = when;
  for (const target of await targetsOf(trx, deps, tenantId, rule, 'alerts', { siteId, now })) {
    const who = targetKey(target);
    // The later of the rule's and the recipient's own quiet hours (CRITICAL passes both where the rule says so).
    const bypass = rule.critical_bypasses_quiet === 1 && severities.includes('CRITICAL');
    const own = target.quiet && !bypass ? quietUntil(Date.parse(now), target.quiet) : null;
    const until = ruleUntil === null ? own : own === null ? ruleUntil : Math.max(ruleUntil, own);
    const row = {
      tenant_id: tenantId,
      rule_id: rule.id,
      channel_id: target.channelId,
      address: target.address,
      category: 'alerts' as const,
      body,
    };
    if (until !== null && !target.suppressed) {
      // Deferred, never dropped: what waits for the same recipient leaves as one message.
      const deferred = `quiet:${rule.id}:${who}:${new Date(until).toISOString()}`;
      const waiting = await waitingNotification(trx, deferred);
      if (waiting) await replaceBody(trx, waiting.id, foldAlerts(JSON.parse(waiting.body) as AlertBody, body));
      else
        await enqueueNotifications(
          trx,
          [{ ...row, dedupe_key: deferred, next_attempt_at: new Date(until).toISOString() }],
          now,
        );
      continue;
    }
    await enqueueNotifications(
      trx,
      [
        {
          ...row,
          dedupe_key: `${key}:${rule.id}:${who}`,
          next_attempt_at: now,
          ...(target.suppressed ? { status: 'suppressed' as const, error: target.suppressed } : {}),
        },
      ],
      now,
    );
  }
}

/** The webhook events a rule can also count, with the notice each becomes. */
const EVENT_NOTICES: Partial<Record<WebhookEvent, NotifyEvent>> = {
  scan_failed: 'scan_failed',
  expiry_warning: 'expiry_warning',
  risk_acceptance_expiring: 'risk_acceptance_expiring',
  risk_acceptance_expired: 'risk_acceptance_expired',
};

/** The site, title and severity an event is about, from its webhook data (only names, titles and counts). */
function eventLine(
  type: WebhookEvent,
  data: Record<string, unknown>,
): { siteId: string; siteName: string; line: ChangeLine } | null {
  const finding = data.finding as { site_id: string; site_name: string; title: string; severity: Severity } | undefined;
  if (finding)
    return {
      siteId: finding.site_id,
      siteName: finding.site_name,
      line: { title: shownTitle(finding.title), severity: finding.severity, change: EVENT_NOTICES[type]! },
    };
  if (typeof data.site_id !== 'string') return null;
  const siteName = String(data.site_name ?? '');
  if (type === 'scan_failed')
    return {
      siteId: data.site_id,
      siteName,
      line: {
        title: `Scan mislukt (${Number(data.consecutive_failures)} keer na elkaar)`,
        severity: 'HIGH',
        change: 'scan_failed',
      },
    };
  const days = Number(data.threshold_days);
  const what = data.kind === 'security_txt' ? 'security.txt' : 'Certificaat';
  return {
    siteId: data.site_id,
    siteName,
    line: {
      title: days <= 0 ? `${what} verlopen` : `${what} verloopt binnen ${days} dagen`,
      severity: days <= 7 ? 'HIGH' : 'MEDIUM',
      change: 'expiry_warning',
    },
  };
}

/**
 * Plans what monitoring events (a failing schedule, an expiry, an acceptance that ends) tell people,
 * in the transaction that records them: per rule that counts the event, a message per recipient at
 * once (quiet hours respected), or an item for its digest; what a rule does not count goes to its rest digest.
 */
export async function planEventNotifications(
  trx: DB,
  deps: Pick<ServiceDeps, 'config'>,
  tenantId: string,
  events: Array<{ type: WebhookEvent; data: unknown }>,
  now: string,
): Promise<void> {
  const notices = events
    .filter((e) => EVENT_NOTICES[e.type])
    .map((e) => ({ event: EVENT_NOTICES[e.type]!, ...eventLine(e.type, e.data as Record<string, unknown>) }))
    .filter(
      (n): n is { event: NotifyEvent; siteId: string; siteName: string; line: ChangeLine } =>
        'line' in n && n.line !== undefined,
    );
  if (notices.length === 0) return;
  for (const rule of await rulesOfTenant(trx, tenantId)) {
    const sites = rule.site_ids ? (JSON.parse(rule.site_ids) as string[]) : null;
    for (const notice of notices) {
      if (sites && !sites.includes(notice.siteId)) continue;
      const site = await findSite(trx, tenantId, notice.siteId);
      if (!site) continue;
      const item = {
        site: { id: site.id, name: shownName(notice.siteName), host: new URL(site.url).host },
        line: notice.line,
      };
      const counts = ruleCounts(rule, { event: notice.event, severity: notice.line.severity });
      if (!counts || rule.mode !== 'immediate') {
        const part = counts ? ('digest' as const) : rule.rest ? ('rest' as const) : null;
        if (part)
          await insertDigestItems(trx, [{ tenant_id: tenantId, rule_id: rule.id, part, item, created_at: now }]);
        continue;
      }
      const body: AlertBody = {
        kind: 'alert',
        site: { name: item.site.name, host: item.site.host, link: siteLink(deps, site.id) },
        first: false,
        lines: [notice.line],
        more: 0,
        counts: { new: 0, regressed: 0, resolved: 0, other: 1 },
        open: await openTotalsOfSite(trx, site.id),
        scan_link: siteLink(deps, site.id),
        scanned_at: now,
      };
      await sendAlert(trx, deps, tenantId, rule, body, `event:${notice.event}:${site.id}:${notice.line.title}:${now}`, {
        until: leavesAt(rule, [notice.line.severity], now),
        now,
        siteId: site.id,
        severities: [notice.line.severity],
      });
    }
  }
}

/** Writes monitoring events to the webhook outbox and plans their notifications, in one transaction. */
export async function recordEvents(
  trx: DB,
  deps: Pick<ServiceDeps, 'config'>,
  tenantId: string,
  events: Array<{ type: WebhookEvent; data: unknown }>,
  now: string,
): Promise<void> {
  await enqueueEvents(trx, tenantId, events, now);
  await planEventNotifications(trx, deps, tenantId, events, now);
}
