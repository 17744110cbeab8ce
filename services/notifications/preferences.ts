import { isUnsubscribed, preferencesOf, resubscribe, storePreferences, unsubscribe } from '../../db/notifications.ts';
import { findSite } from '../../db/sites.ts';
import { Invalid } from '../../domain/errors.ts';
import type { UserPrincipal } from '../accounts.ts';
import { isoNow, type ServiceDeps } from '../deps.ts';
import { isZone } from './zoned-time.ts';

export interface MySettings {
  alerts: boolean;
  digest: boolean;
  quiet_hours: { from: string; to: string; zone: string } | null;
  mutes: Array<{ site_id: string; until: string }>;
  /** When this member's digests arrive (hour, weekday for weekly ones, zone); null: at the rule's hour. */
  digest_at: { hour: number; weekday?: number; zone: string } | null;
}

/** What the logged-in member gets at their own address: categories, personal quiet hours, muted sites. */
export async function mySettings(deps: ServiceDeps, user: UserPrincipal): Promise<MySettings> {
  const [alertsOff, digestOff, prefs] = await Promise.all([
    isUnsubscribed(deps.db, user.tenantId, user.email, 'alerts'),
    isUnsubscribed(deps.db, user.tenantId, user.email, 'digest'),
    preferencesOf(deps.db, user.tenantId, user.email),
  ]);
  return { alerts: !alertsOff, digest: !digestOff, ...prefs };
}

/** Changes the member's own settings; a mute is for one of the tenant's sites, until a date. */
export async function setMySettings(deps: ServiceDeps, user: UserPrincipal, input: MySettings): Promise<MySettings> {
  for (const zone of [input.quiet_hours?.zone, input.digest_at?.zone])
    if (zone && !isZone(zone)) throw new Invalid(`zone: ${zone.slice(0, 64)} is geen bekende IANA-tijdzone.`);
  for (const mute of input.mutes)
    if (!(await findSite(deps.db, user.tenantId, mute.site_id)))
      throw new Invalid(`mutes: site ${mute.site_id} bestaat niet.`);
  const now = isoNow(deps);
  for (const category of ['alerts', 'digest'] as const) {
    if (input[category]) await resubscribe(deps.db, user.tenantId, user.email, category);
    else await unsubscribe(deps.db, user.tenantId, user.email, category, now);
  }
  await storePreferences(
    deps.db,
    user.tenantId,
    user.email,
    { quiet_hours: input.quiet_hours, mutes: input.mutes, digest_at: input.digest_at },
    now,
  );
  return mySettings(deps, user);
}
