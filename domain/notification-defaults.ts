import type { NotifyEvent, Role, Severity } from './vocabulary.ts';

/**
 * The rule every tenant starts with: new or regressed HIGH and CRITICAL at once to owners and
 * admins; everything else in a Monday 09:00 digest; quiet from 22:00 to 07:00 in Amsterdam, which
 * CRITICAL passes.
 */
export const DEFAULT_RULE = {
  name: 'Standaard',
  site_ids: null,
  min_severity: 'HIGH' as Severity,
  events: ['new', 'regressed'] as NotifyEvent[],
  mode: 'immediate' as const,
  at: null,
  rest: { mode: 'weekly' as const, at: { hour: 9, weekday: 1 } },
  channel_ids: [] as string[],
  roles: ['owner', 'admin'] as Role[],
  quiet_hours: { from: '22:00', to: '07:00', zone: 'Europe/Amsterdam' },
  critical_bypasses_quiet: true,
};

/** The stored row of DEFAULT_RULE for a tenant. */
export function defaultRuleRow(id: string, tenantId: string, now: string) {
  return {
    id,
    tenant_id: tenantId,
    name: DEFAULT_RULE.name,
    site_ids: null,
    min_severity: DEFAULT_RULE.min_severity,
    events: JSON.stringify(DEFAULT_RULE.events),
    mode: DEFAULT_RULE.mode,
    at: null,
    rest: JSON.stringify(DEFAULT_RULE.rest),
    channel_ids: JSON.stringify(DEFAULT_RULE.channel_ids),
    roles: JSON.stringify(DEFAULT_RULE.roles),
    quiet_hours: JSON.stringify(DEFAULT_RULE.quiet_hours),
    critical_bypasses_quiet: 1,
    last_digest_at: null,
    last_rest_digest_at: null,
    created_at: now,
  };
}
