import { headerValues } from '../net/headers.ts';
import { observe, type Check } from './context.ts';

// Six months as the Observatory counts it (15768000 s, minus the common 180-day value's slack).
export const HSTS_MIN_MAX_AGE = 15_552_000;

export const checkStrictTransportSecurity: Check = (ctx) => {
  const { https, page } = ctx.evidence;
  if (!https) return [];
  const at = page?.url.startsWith('https:') ? page.url : `https://${new URL(ctx.evidence.target).host}/`;
  // Browsers ignore HSTS received over a connection with certificate errors.
  if (!https.verified) return [observe('hsts_ignored_invalid_certificate', at)];
  const value = headerValues(https.headers, 'strict-transport-security')[0];
  if (value === undefined) return [observe('hsts_missing', at)];
  const directives = value
    .slice(0, 1024)
    .split(';')
    .map((d) => d.trim().toLowerCase());
  const maxAgeDirective = directives.find((d) => d.startsWith('max-age='));
  const maxAge = maxAgeDirective ? Number.parseInt(maxAgeDirective.slice(8).replace(/"/g, ''), 10) : Number.NaN;
  if (value.includes(',') || Number.isNaN(maxAge)) return [observe('hsts_invalid', at, value)];
  const found = [];
  if (maxAge < HSTS_MIN_MAX_AGE) found.push(observe('hsts_max_age_too_short', at, value));
  if (!directives.includes('includesubdomains')) found.push(observe('hsts_no_include_subdomains', at, value));
  return found;
};
