import { observe, type Check } from './context.ts';

/** The http:// variant should go straight to https:// on the same host. */
export const checkHttpRedirection: Check = (ctx) => {
  const route = ctx.evidence.httpRedirects;
  if (route.length === 0 || !ctx.evidence.https) return [];
  const start = route[0]!.url;
  const shown = route.map((hop) => `${hop.url} (${hop.status})`).join(' -> ');
  const urls = route.map((hop) => new URL(hop.url));
  if (route.length === 1) return [observe('http_no_redirect_to_https', start, shown)];
  if (urls.at(-1)!.protocol !== 'https:') return [observe('http_redirect_not_to_https', start, shown)];
  if (urls[1]!.protocol === 'http:') return [observe('http_redirect_initial_not_https', start, shown)];
  if (urls[0]!.hostname !== urls[1]!.hostname) return [observe('http_redirect_off_host', start, shown)];
  return [];
};
