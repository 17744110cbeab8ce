import { checkStrictTransportSecurity } from '../checks/hsts.ts';
import type { SiteContact } from '../probes/retriever.ts';
import { defineTest, originOfUrl } from './test.ts';

/** The HTTPS origin whose Strict-Transport-Security is judged: the page's, or the target host's. */
const hstsOrigin = (site: SiteContact) =>
  site.page?.url.startsWith('https:') ? originOfUrl(site.page.url) : `https://${site.target.host}`;

export const hstsTest = defineTest({
  name: 'strict_transport_security',
  category: 'SSL_TLS',
  subject: 'origin',
  reach: 'passive',
  readsPage: true,
  produces: [
    'hsts_missing',
    'hsts_invalid',
    'hsts_max_age_too_short',
    'hsts_no_include_subdomains',
    'hsts_ignored_invalid_certificate',
  ],
  checks: { strict_transport_security: checkStrictTransportSecurity },
  subjectOf: hstsOrigin,
  coverage: (ctx, _tools, subject) => [
    ctx.evidence.https
      ? { subject, status: 'completed', reason: null }
      : { subject, status: 'not_applicable', reason: 'geen werkende HTTPS' },
  ],
});
