/**
 * Wall-clock time in an IANA zone, through Intl (the runtime's tz database): what a rule's quiet
 * hours and digest hour mean on the day of a clock change too.
 */

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** 0 Sunday … 6 Saturday. */
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

function formatter(zone: string): Intl.DateTimeFormat {
  let found = formatters.get(zone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'short',
    });
    formatters.set(zone, found);
  }
  return found;
}

/** Whether the runtime knows the zone. */
export function isZone(zone: string): boolean {
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock in `zone` at an instant. */
export function wallAt(instant: number, zone: string): Wall {
  const parts = Object.fromEntries(
    formatter(zone)
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    weekday: WEEKDAYS.indexOf(parts.weekday!),
  };
}

/** The instant the wall clock in `zone` shows this date and time; a time skipped by a clock change lands after the gap. */
export function instantOf(
  zone: string,
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
): number {
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  const offsetAt = (instant: number) => {
    const w = wallAt(instant, zone);
    return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute) - Math.floor(instant / 60_000) * 60_000;
  };
  const first = asUtc - offsetAt(asUtc);
  const second = asUtc - offsetAt(first);
  return second;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Whether an instant falls in quiet hours `from`-`to` (HH:MM, wall clock in `zone`; a window may
 * run past midnight), and when they end: the next instant the wall clock shows `to`.
 */
export function quietUntil(instant: number, quiet: { from: string; to: string; zone: string }): number | null {
  const wall = wallAt(instant, quiet.zone);
  const now = wall.hour * 60 + wall.minute;
  const from = minutesOf(quiet.from);
  const to = minutesOf(quiet.to);
  const inside = from <= to ? now >= from && now < to : now >= from || now < to;
  if (!inside || from === to) return null;
  for (let days = 0; days <= 2; days++) {
    const date = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + days));
    const end = instantOf(
      quiet.zone,
      date.getUTCFullYear(),
      date.getUTCMonth() + 1,
      date.getUTCDate(),
      Math.floor(to / 60),
      to % 60,
    );
    if (end > instant) return end;
  }
  return null;
}

/**
 * The latest digest slot at or before an instant: today's (or the weekday's) `hour`:00 in `zone`.
 * `weekday` 0 is Sunday, 1 Monday; null for a daily digest.
 */
export function latestSlot(instant: number, zone: string, hour: number, weekday: number | null): number {
  const wall = wallAt(instant, zone);
  for (let back = 0; back <= 8; back++) {
    const date = new Date(Date.UTC(wall.year, wall.month - 1, wall.day - back));
    if (weekday !== null && date.getUTCDay() !== weekday) continue;
    const slot = instantOf(zone, date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), hour, 0);
    if (slot <= instant) return slot;
  }
  return instant;
}

/** The first slot at or after an instant: a member's own digest hour (weekday for weekly digests). */
export function nextSlot(
  instant: number,
  at: { hour: number; weekday?: number; zone: string },
  weekly: boolean,
): number {
  const weekday = weekly ? (at.weekday ?? 1) : null;
  const latest = latestSlot(instant, at.zone, at.hour, weekday);
  if (latest === instant) return latest;
  return latestSlot(instant + (weekly ? 7 : 1) * 86_400_000, at.zone, at.hour, weekday);
}
