/**
 * The Strict-Transport-Security header read once, for our check and for internet.nl's subtest, which
 * judge its max-age by different bars.
 */

/** Six months as the Observatory counts it (15768000 s, minus the common 180-day value's slack). */
export const HSTS_MIN_MAX_AGE = 15_552_000;
/** internet.nl's bar: a year; less is 2 points and failed (checks/tasks/http_headers.py). */
export const INTERNETNL_HSTS_MIN_MAX_AGE = 31_536_000;

/** The directives and max-age of a header value; null when it is invalid (two headers folded, no number). */
export function parseHsts(value: string): { maxAge: number; directives: string[] } | null {
  const directives = value
    .slice(0, 1024)
    .split(';')
    .map((d) => d.trim().toLowerCase());
  const maxAgeDirective = directives.find((d) => d.startsWith('max-age='));
  const maxAge = maxAgeDirective ? Number.parseInt(maxAgeDirective.slice(8).replace(/"/g, ''), 10) : Number.NaN;
  return value.includes(',') || Number.isNaN(maxAge) ? null : { maxAge, directives };
}
