import { changesOfScanWithTitles, channelsOfTenant, rulesOfTenant } from '../../db/notifications.ts';
import { listSites } from '../../db/sites.ts';
import { ruleCounts } from './plan.ts';
import { assertPermission, type Actor } from '../../domain/actor.ts';
import { SEVERITIES, type NotifyEvent, type Severity } from '../../domain/vocabulary.ts';
import type { ServiceDeps } from '../deps.ts';
import { MAX_LINES, shownName, shownTitle } from './message.ts';
import { targetsOf } from './targets.ts';

const rank = (severity: Severity) => SEVERITIES.indexOf(severity);
const CHANGE_EVENTS: Record<string, NotifyEvent> = {
  new: 'new',
  regressed: 'regressed',
  resolved: 'resolved',
  escalated: 'escalated',
};

/**
 * What each rule would have sent for the latest scan of each of its sites, and to whom: the
 * dashboard's preview, so a rule can be judged before the next scan. Sends nothing.
 */
export async function previewRules(deps: ServiceDeps, actor: Actor) {
  assertPermission(actor, 'read_config');
  const { db } = deps;
  const { rows: sites } = await listSites(db, actor.tenantId, {});
  const changesBySite = new Map<string, Array<{ title: string; severity: Severity; event: NotifyEvent }>>();
  for (const site of sites) {
    if (!site.latest_scan_id) continue;
    const rows = await changesOfScanWithTitles(db, site.latest_scan_id);
    const changes = rows.flatMap((row) => {
      if (CHANGE_EVENTS[row.kind])
        return [{ title: row.title, severity: row.severity, event: CHANGE_EVENTS[row.kind]! }];
      const up =
        row.kind === 'severity_changed' &&
        row.from_severity &&
        row.to_severity &&
        rank(row.to_severity) < rank(row.from_severity);
      return up ? [{ title: row.title, severity: row.severity, event: 'severity_up' as const }] : [];
    });
    changesBySite.set(site.id, changes);
  }
  const rules = await rulesOfTenant(db, actor.tenantId);
  const channels = await channelsOfTenant(db, actor.tenantId);
  const channelName = new Map(channels.map((c) => [c.id, c.name]));
  const previews = [];
  for (const rule of rules) {
    const scope = rule.site_ids ? (JSON.parse(rule.site_ids) as string[]) : null;
    const messages = sites
      .filter((site) => !scope || scope.includes(site.id))
      .map((site) => {
        const matched = (changesBySite.get(site.id) ?? [])
          .filter((c) => ruleCounts(rule, c))
          .sort((a, b) => rank(a.severity) - rank(b.severity));
        return {
          site_name: shownName(site.name),
          lines: matched
            .slice(0, MAX_LINES)
            .map((c) => ({ title: shownTitle(c.title), severity: c.severity, change: c.event })),
          more: Math.max(0, matched.length - MAX_LINES),
        };
      })
      .filter((m) => m.lines.length > 0);
    const recipients = (await targetsOf(db, deps, actor.tenantId, rule, 'alerts')).map((t) => ({
      to: t.address ?? channelName.get(t.channelId ?? '') ?? '',
      kind: t.kind,
      suppressed: t.suppressed,
    }));
    previews.push({ rule_id: rule.id, mode: rule.mode, messages, recipients });
  }
  return { previews };
}
