import { acceptancesEndingBy, claimEnd, claimNotice } from '../db/acceptances.ts';
import { claimExpiryWarning, expiriesEndingBy, lowestWarnedThreshold } from '../db/expiries.ts';
import { insertStatusChange } from '../db/finding-status-changes.ts';
import { findFinding, setFindingStatus } from '../db/findings.ts';
import { recordEvents } from './notifications/plan.ts';
import { latestSightingOnHost } from '../db/scan-changes.ts';
import { scannedHostOf } from '../domain/finding-lifecycle.ts';
import { EXPIRY_WARNING_DAYS } from '../domain/vocabulary.ts';
import { recheckScheduledClaims } from './verification.ts';
import { nowOf, type ServiceDeps } from './deps.ts';
import { daysLeft, expiryView } from './expiries.ts';
import type { Logger } from './logger.ts';
import { PollingWorker } from './polling-worker.ts';
import { acceptanceView, findingEventData, findingView } from './views.ts';

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** Who the history names for what the sweeper does. */
const SWEEPER = { kind: 'system', id: 'platform' } as const;

export interface SweepCounts {
  /** risk_acceptance_expiring sent. */
  noticed: number;
  /** Acceptances that ended. */
  expired: number;
  /** expiry_warning sent. */
  warned: number;
  /** Tenants whose due proof-of-control claims were checked again. */
  claimsChecked: number;
}

/** Sends risk_acceptance_expiring once per acceptance that ends within the notice period. */
async function noticeEndingAcceptances(deps: ServiceDeps, now: number): Promise<number> {
  const until = now + deps.config.RISK_EXPIRY_NOTICE_DAYS * DAY_MS;
  let sent = 0;
  for (const row of await acceptancesEndingBy(deps.db, iso(until), { unnoticedOnly: true })) {
    if (Date.parse(row.expires_at) <= now) continue;
    const claimed = await deps.db.transaction().execute(async (trx) => {
      if (!(await claimNotice(trx, row.id, iso(now)))) return false;
      const finding = await findFinding(trx, row.finding_id);
      if (!finding) return false;
      await recordEvents(
        trx,
        deps,
        row.tenant_id,
        [
          {
            type: 'risk_acceptance_expiring',
            data: {
              finding: findingView(finding),
              acceptance: acceptanceView(row),
              days_left: daysLeft(row.expires_at, now),
            },
          },
        ],
        iso(now),
      );
      return true;
    });
    if (claimed) sent += 1;
  }
  return sent;
}

/**
 * Ends acceptances whose time is up. The finding opens again when the latest scan of its host still
 * saw it (finding_new, `change.kind` acceptance_expired), and is resolved quietly otherwise; either
 * way its history says "acceptatie verlopen" and risk_acceptance_expired goes out.
 */
async function endExpiredAcceptances(deps: ServiceDeps, now: number): Promise<number> {
  let ended = 0;
  for (const row of await acceptancesEndingBy(deps.db, iso(now))) {
    const done = await deps.db.transaction().execute(async (trx) => {
      if (!(await claimEnd(trx, row.id, iso(now)))) return false;
      const before = await findFinding(trx, row.finding_id);
      if (before?.status !== 'ACCEPTED_RISK') return true;
      const sighting = await latestSightingOnHost(trx, before, scannedHostOf(before.endpoint));
      const status = sighting?.saw ? 'OPEN' : 'RESOLVED';
      await setFindingStatus(trx, before.id, status, iso(now));
      await insertStatusChange(trx, {
        tenant_id: row.tenant_id,
        finding_id: before.id,
        status,
        reason:
          status === 'OPEN'
            ? 'acceptatie verlopen; de laatste scan zag de bevinding nog'
            : 'acceptatie verlopen; de laatste scan zag de bevinding niet meer',
        actor_kind: SWEEPER.kind,
        actor_id: SWEEPER.id,
        actor_label: SWEEPER.id,
        changed_at: iso(now),
        scan_id: null,
      });
      const finding = findingView((await findFinding(trx, before.id))!);
      const acceptance = acceptanceView(row);
      await recordEvents(
        trx,
        deps,
        row.tenant_id,
        [
          { type: 'risk_acceptance_expired', data: { finding, acceptance } },
          ...(status === 'OPEN'
            ? [
                {
                  type: 'finding_new' as const,
                  data: findingEventData(finding, {
                    kind: 'acceptance_expired',
                    scan_id: sighting?.scan_id ?? null,
                    previous_scan_id: null,
                    previous_status: before.status,
                    previous_severity: before.severity,
                  }),
                },
              ]
            : []),
        ],
        iso(now),
      );
      return true;
    });
    if (done) ended += 1;
  }
  return ended;
}

/**
 * Sends expiry_warning for the items of each site's latest scan: once per threshold (60, 30, 14, 7
 * and 0 days) per item, and for an item first seen past several only the nearest one it passed.
 */
async function warnOfExpiries(deps: ServiceDeps, now: number): Promise<number> {
  const horizon = now + Math.max(...EXPIRY_WARNING_DAYS) * DAY_MS;
  let sent = 0;
  for (const item of await expiriesEndingBy(deps.db, iso(horizon))) {
    const left = Date.parse(item.not_after) - now;
    const passed = EXPIRY_WARNING_DAYS.filter((days) => left <= days * DAY_MS);
    if (passed.length === 0) continue;
    const threshold = Math.min(...passed);
    const key = { site_id: item.site_id, kind: item.kind, subject: item.subject, not_after: item.not_after };
    const lowest = await lowestWarnedThreshold(deps.db, key);
    if (lowest !== null && lowest <= threshold) continue;
    const claimed = await deps.db.transaction().execute(async (trx) => {
      if (!(await claimExpiryWarning(trx, { ...key, threshold_days: threshold, sent_at: iso(now) }))) return false;
      await recordEvents(
        trx,
        deps,
        item.tenant_id,
        [
          {
            type: 'expiry_warning',
            data: {
              site_id: item.site_id,
              site_name: item.site_name,
              ...expiryView(item, now),
              threshold_days: threshold,
            },
          },
        ],
        iso(now),
      );
      return true;
    });
    if (claimed) sent += 1;
  }
  return sent;
}

/** One sweep at the deps' clock: notices, ends, warnings. Safe to run in several processes at once. */
export async function sweepMonitoring(deps: ServiceDeps): Promise<SweepCounts> {
  const now = nowOf(deps);
  const noticed = await noticeEndingAcceptances(deps, now);
  const expired = await endExpiredAcceptances(deps, now);
  const warned = await warnOfExpiries(deps, now);
  // Proof of control stays true only while it is in place: scheduled sites' claims are checked daily.
  const claimsChecked = await recheckScheduledClaims(deps);
  return { noticed, expired, warned, claimsChecked };
}

/** Runs the sweep every RISK_SWEEP_INTERVAL_S seconds. */
export class MonitoringSweeper extends PollingWorker {
  constructor(
    private readonly deps: ServiceDeps,
    log: Logger,
  ) {
    super(deps.config.RISK_SWEEP_INTERVAL_S * 1000, log, 'monitoring sweeper');
  }

  protected busy(): boolean {
    return false;
  }

  protected async round(): Promise<void> {
    const counts = await sweepMonitoring(this.deps);
    if (counts.noticed + counts.expired + counts.warned + counts.claimsChecked > 0)
      this.log.info(counts, 'monitoring sweep');
  }
}
