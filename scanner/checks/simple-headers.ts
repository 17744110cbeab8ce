import { firstHeader, headerValues } from '../net/headers.ts';
import { observe, type Check } from './context.ts';

export const checkContentTypeOptions: Check = (ctx) => {
  const page = ctx.evidence.page;
  if (!page) return [];
  const value = firstHeader(page.headers, 'x-content-type-options');
  if (value === null) return [observe('x_content_type_options_missing', page.url)];
  return value.trim().toLowerCase() === 'nosniff' ? [] : [observe('x_content_type_options_invalid', page.url, value)];
};

const PRIVATE_REFERRER = ['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin'];
const LEAKY_REFERRER = ['origin', 'origin-when-cross-origin', 'unsafe-url', 'no-referrer-when-downgrade'];

export const checkReferrerPolicy: Check = (ctx) => {
  const page = ctx.evidence.page;
  if (!page) return [];
  const declared = [...headerValues(page.headers, 'referrer-policy'), ...(ctx.html?.metaNames.referrer ?? [])];
  if (declared.length === 0) return [observe('referrer_policy_missing', page.url)];
  // Browsers apply the last policy value they recognise.
  const tokens = declared
    .join(',')
    .split(',')
    .map((t) => t.trim().toLowerCase());
  const policy = tokens.filter((t) => PRIVATE_REFERRER.includes(t) || LEAKY_REFERRER.includes(t)).at(-1);
  if (policy === undefined) return [observe('referrer_policy_invalid', page.url, declared.join(', '))];
  return LEAKY_REFERRER.includes(policy) ? [observe('referrer_policy_unsafe', page.url, policy)] : [];
};

export const checkPermissionsPolicy: Check = (ctx) => {
  const page = ctx.evidence.page;
  if (!page || !ctx.html) return [];
  return headerValues(page.headers, 'permissions-policy').length === 0
    ? [observe('permissions_policy_missing', page.url)]
    : [];
};

const VERSION = /\d+\.\d+/;

/** Server and X-Powered-By that name a product version help attackers pick exploits. */
export const checkVersionDisclosure: Check = (ctx) => {
  const page = ctx.evidence.page;
  if (!page) return [];
  const found = [];
  const server = firstHeader(page.headers, 'server');
  if (server && VERSION.test(server)) found.push(observe('server_version_disclosure', page.url, server));
  const poweredBy = headerValues(page.headers, 'x-powered-by');
  if (poweredBy.length > 0) found.push(observe('x_powered_by_disclosure', page.url, poweredBy.join(', ')));
  return found;
};
