import { checkHttpsAvailable } from '../checks/transport.ts';
import { defineTest, originOfUrl, REASONS } from './test.ts';

/** Whether the site's HTTPS origin answers TLS at all. */
export const httpsTest = defineTest({
  name: 'https',
  category: 'SSL_TLS',
  subject: 'origin',
  reach: 'passive',
  produces: ['https_unavailable'],
  checks: { https_available: checkHttpsAvailable },
  subjectOf: (site) => originOfUrl(site.httpsUrl),
  // A handshake cut short by the deadline says nothing about HTTPS.
  coverage: (_ctx, { site }, subject) => [
    site.tlsCut
      ? { subject, status: 'failed', reason: REASONS.deadline }
      : { subject, status: 'completed', reason: null },
  ],
});
