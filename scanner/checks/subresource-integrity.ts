import type { FindingType } from '../catalog/index.ts';
import { firstHeader } from '../net/headers.ts';
import { isHtmlContentType } from '../probes/html.ts';
import { siteOf } from '../net/registrable-domain.ts';
import { observe, type Check } from './context.ts';

/** External scripts (another registrable domain) should be loaded over https with an integrity hash. */
export const checkSubresourceIntegrity: Check = (ctx) => {
  const page = ctx.evidence.page;
  if (!page || !ctx.html || !isHtmlContentType(firstHeader(page.headers, 'content-type'))) return [];
  const pageSite = siteOf(new URL(page.url).hostname);
  const byType = new Map<FindingType, string[]>();
  const add = (type: FindingType, src: string) => byType.set(type, [...(byType.get(type) ?? []), src]);
  for (const script of ctx.html.scripts) {
    if (script.src.startsWith('//')) {
      add('script_protocol_relative', script.src);
      continue;
    }
    if (!/^https?:\/\//i.test(script.src)) continue;
    const url = new URL(script.src);
    if (siteOf(url.hostname) === pageSite) continue;
    if (url.protocol === 'http:') add('external_script_insecure', script.src);
    else if (!script.integrity) add('sri_missing', script.src);
  }
  return [...byType].map(([type, sources]) => observe(type, page.url, sources.slice(0, 10).join(' ')));
};
