import { sql } from 'kysely';
import type { DB } from '../../db/database.ts';
import {
  enqueueNotifications,
  insertDigestItems,
  replaceBody,
  rulesOfTenant,
  waitingNotification,
  type RuleRow,
} from '../../db/notifications.ts';
import { SEVERITIES, type NotifyEvent, type Severity } from '../../domain/vocabulary.ts';
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

async function openTotals(trx: DB, siteId: string): Promise<Record<Severity, number>> {
  const rows = await trx
    .selectFrom('findings')
    .select(['severity', (eb) => eb.fn.countAll<number>().as('n')])
    .where('site_id', '=', siteId)
    .where('status', 'in', ['OPEN', 'IN_PROGRESS'])
    .groupBy('severity')
    .execute();
  const totals = { CRITICAL: 0, HIGH: 0, MEDIUM: 0, LOW: 0 };
  for (const row of rows) totals[row.severity] = Number(row.n);
  return totals;
}

async function unstableFindings(trx: DB, ids: string[], now: string): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const since = new Date(Date.parse(now) - UNSTABLE_DAYS * 86_400_000).toISOString();
  const rows = await trx
    .selectFrom('scan_changes')
    .innerJoin('scans', 'scans.id', 'scan_changes.scan_id')
    .select(['scan_changes.finding_id', sql<number>`count(*)`.as('n')])
    .where('scan_changes.finding_id', 'in', ids)
    .where('scan_changes.kind', '=', 'regressed')
    .where('scans.scanned_at', '>=', since)
    .groupBy('scan_changes.finding_id')
    .execute();
  return new Set(rows.filter((r) => Number(r.n) > UNSTABLE_AFTER).map((r) => r.finding_id));
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

function matches(rule: RuleRow, siteId: string, change: FindingChangeNotice): boolean {
  const sites = rule.site_ids ? (JSON.parse(rule.site_ids) as string[]) : null;
  if (sites && !sites.includes(siteId)) return false;
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
  const open = await openTotals(trx, notice.site.id);
  for (const rule of rules) {
    const sites = rule.site_ids ? (JSON.parse(rule.site_ids) as string[]) : null;
    if (sites && !sites.includes(notice.site.id)) continue;
    const matched = notice.changes.filter((c) => matches(rule, notice.site.id, c) && !unstable.has(c.findingId));
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
    const quiet = rule.quiet_hours
      ? (JSON.parse(rule.quiet_hours) as { from: string; to: string; zone: string })
      : null;
    const bypass = rule.critical_bypasses_quiet === 1 && matched.some((c) => c.severity === 'CRITICAL');
    const until = quiet && !bypass ? quietUntil(Date.parse(now), quiet) : null;
    for (const target of await targetsOf(trx, deps, tenantId, rule, 'alerts')) {
      const who = targetKey(target);
      if (until !== null && !target.suppressed) {
        // Deferred, never dropped: what waits for the same recipient leaves as one message.
        const key = `quiet:${rule.id}:${who}:${new Date(until).toISOString()}`;
        const waiting = await waitingNotification(trx, key);
        if (waiting) {
          await replaceBody(trx, waiting.id, foldAlerts(JSON.parse(waiting.body) as AlertBody, body));
          continue;
        }
        await enqueueNotifications(
          trx,
          [
            {
              tenant_id: tenantId,
              rule_id: rule.id,
              channel_id: target.channelId,
              address: target.address,
              category: 'alerts',
              dedupe_key: key,
              body,
              next_attempt_at: new Date(until).toISOString(),
            },
          ],
          now,
        );
        continue;
      }
      await enqueueNotifications(
        trx,
        [
          {
            tenant_id: tenantId,
            rule_id: rule.id,
            channel_id: target.channelId,
            address: target.address,
            category: 'alerts',
            dedupe_key: `alert:${notice.scanId}:${rule.id}:${who}`,
            body,
            next_attempt_at: now,
            ...(target.suppressed ? { status: 'suppressed' as const, error: target.suppressed } : {}),
          },
        ],
        now,
      );
    }
  }
}
