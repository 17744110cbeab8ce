import { headerValues } from '../net/headers.ts';
import { HSTS_MIN_MAX_AGE, parseHsts } from '../rules/hsts.ts';
import { observe, type Check } from './context.ts';

export const checkStrictTransportSecurity: Check = (ctx) => {
  const { https, page } = ctx.evidence;
  if (!https) return [];
  const at = page?.url.startsWith('https:') ? page.url : `https://${new URL(ctx.evidence.target).host}/`;
  // Browsers ignore HSTS received over a connection with certificate errors.
  if (!https.verified) return [observe('hsts_ignored_invalid_certificate', at)];
  const value = headerValues(https.headers, 'strict-transport-security')[0];
  if (value === undefined) return [observe('hsts_missing', at)];
  const parsed = parseHsts(value);
  if (!parsed) return [observe('hsts_invalid', at, value)];
  const { maxAge, directives } = parsed;
  const found = [];
  if (maxAge < HSTS_MIN_MAX_AGE) found.push(observe('hsts_max_age_too_short', at, value));
  if (!directives.includes('includesubdomains')) found.push(observe('hsts_no_include_subdomains', at, value));
  return found;
};
