import { checkHttpsAvailable } from '../checks/transport.ts';
import { defineTest, originOfUrl, REASONS } from './test.ts';

/** Whether the site's HTTPS origin answers TLS at all. */
export const httpsTest = defineTest({
  name: 'https',
  category: 'SSL_TLS',
  subject: 'origin',
  produces: ['https_unavailable'],
  checks: { https_available: checkHttpsAvailable },
  subjectOf: (site) => originOfUrl(site.httpsUrl),
  // A handshake cut short by the deadline says nothing about HTTPS.
  coverage: (_ctx, { site }) => [
    site.tlsCut
      ? { subject: originOfUrl(site.httpsUrl), status: 'failed', reason: REASONS.deadline }
      : { subject: originOfUrl(site.httpsUrl), status: 'completed', reason: null },
  ],
});
