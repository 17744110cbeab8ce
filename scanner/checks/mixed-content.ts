import type { FindingType } from '../catalog/index.ts';
import type { Subresource } from '../probes/html.ts';
import { observe, type Check } from './context.ts';
import { upgradesInsecureRequests } from './csp.ts';

/** URLs named in one actual_value. */
const MAX_URLS = 10;

function typeOf(resource: Subresource): FindingType {
  if (resource.kind === 'script') return 'mixed_content_script';
  if (resource.kind === 'form') return resource.password ? 'mixed_content_password_form' : 'mixed_content_active';
  return resource.kind === 'active' ? 'mixed_content_active' : 'mixed_content_passive';
}

/**
 * http:// content on an https:// page (the W3C Mixed Content spec): browsers block active content
 * (scripts, stylesheets, frames, objects) and warn on passive content and insecure form targets.
 * upgrade-insecure-requests makes browsers fetch passive content over https instead.
 */
export const checkMixedContent: Check = (ctx) => {
  const page = ctx.evidence.page;
  if (!page || !ctx.html || new URL(page.url).protocol !== 'https:') return [];
  const upgraded = upgradesInsecureRequests(ctx);
  const byType = new Map<FindingType, string[]>();
  for (const resource of ctx.html.subresources) {
    let url: URL;
    try {
      url = new URL(resource.url, page.url);
    } catch {
      continue;
    }
    if (url.protocol !== 'http:') continue;
    const type = typeOf(resource);
    if (type === 'mixed_content_passive' && upgraded) continue;
    const urls = byType.get(type) ?? [];
    if (!urls.includes(url.href)) byType.set(type, [...urls, url.href]);
  }
  return [...byType].map(([type, urls]) =>
    observe(
      type,
      page.url,
      `${urls.slice(0, MAX_URLS).join(' ')}${urls.length > MAX_URLS ? ` (en ${urls.length - MAX_URLS} meer)` : ''}`,
    ),
  );
};

/** A password field on a page served over http://: whatever its form's action, the page itself can be changed in transit. */
export const checkPasswordOverHttp: Check = (ctx) => {
  const page = ctx.evidence.page;
  if (!page || !ctx.html?.passwordField || new URL(page.url).protocol !== 'http:') return [];
  return [observe('password_field_insecure_page', page.url)];
};
