import type { FindingType } from '../catalog/index.ts';
import { WEB_SERVERS, type SitePlatform, type WebServer } from '../vocabulary.ts';
import { APACHE_FIXES } from './apache.ts';
import { CADDY_FIXES } from './caddy.ts';
import { CERTIFICATE_FIXES, DNS_FIXES, SECURITY_TXT_FIXES } from './common.ts';
import { COMMON_TARGETS, FIX_TARGETS, type Fix, type FixTable, type FixTarget } from './fix.ts';
import { COMPONENT_FIXES, fillComponentFix, isComponentType } from './components.ts';
import { NGINX_FIXES } from './nginx.ts';
import {
  CLOUDFLARE_FIXES,
  NETLIFY_FIXES,
  NEXTJS_FIXES,
  SUPABASE_FIXES,
  VERCEL_FIXES,
  WEBFLOW_FIXES,
  WORDPRESS_FIXES,
} from './platforms.ts';

export { FIX_TARGETS, type Fix, type FixTarget };

/** Every target's table; a target without one (IIS, LiteSpeed) gets the common fixes only. Lovable's backend is the common Supabase table. */
export const FIX_TABLES: Partial<Record<FixTarget, FixTable>> = {
  nginx: NGINX_FIXES,
  apache: APACHE_FIXES,
  caddy: CADDY_FIXES,
  cloudflare: CLOUDFLARE_FIXES,
  vercel: VERCEL_FIXES,
  netlify: NETLIFY_FIXES,
  nextjs: { ...NEXTJS_FIXES, ...COMPONENT_FIXES.nextjs },
  wordpress: { ...WORDPRESS_FIXES, ...COMPONENT_FIXES.wordpress },
  webflow: { ...WEBFLOW_FIXES, ...COMPONENT_FIXES.webflow },
  lovable: COMPONENT_FIXES.lovable,
  supabase: SUPABASE_FIXES,
  dns: DNS_FIXES,
  certificate: CERTIFICATE_FIXES,
  security_txt: SECURITY_TXT_FIXES,
};

/**
 * The fixes of one finding type: the detected server's first, then the detected platform's, then
 * the common ones (DNS, certificates, security.txt, Supabase); with no server detected, every
 * server's, so the owner picks theirs. `evidence` is the finding's actual_value, which a
 * known-vulnerable component's fix takes its versions from.
 */
export function fixesFor(
  type: FindingType,
  server: WebServer | null,
  platform: SitePlatform | null,
  evidence?: string | null,
): Fix[] {
  const order: FixTarget[] = [...(server ? [server] : WEB_SERVERS), ...(platform ? [platform] : []), ...COMMON_TARGETS];
  const fixes: Fix[] = [];
  for (const target of order) {
    const entry = FIX_TABLES[target]?.[type];
    // A component's fix names the version its finding's evidence gives.
    if (entry) fixes.push({ target, ...(isComponentType(type) ? fillComponentFix(entry, evidence) : entry) });
  }
  return fixes;
}
