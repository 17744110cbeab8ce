import net from 'node:net';
import { checkCaa } from '../checks/caa.ts';
import { bareHost } from '../net/address-policy.ts';
import { isLocalhostName, lookupCaa } from '../net/dns.ts';
import { siteOf } from '../net/registrable-domain.ts';
import { defineTest } from './test.ts';

/** CAA records (RFC 8659) of the target's host name or a parent domain up to its registrable domain. */
export const caaTest = defineTest({
  name: 'caa',
  category: 'SSL_TLS',
  subject: 'host',
  reach: 'passive',
  produces: ['caa_missing'],
  checks: { caa: checkCaa },
  subjectOf: (site) => bareHost(site.target.hostname),
  gate: ({ site }) => {
    const host = bareHost(site.target.hostname);
    return net.isIP(host) || isLocalhostName(host) ? { status: 'not_applicable', reason: 'geen domeinnaam' } : null;
  },
  probe: async ({ site, options }) => {
    const host = bareHost(site.target.hostname);
    const domain = siteOf(host);
    const caa = await lookupCaa(host, domain, options);
    return { caa: caa ? { ...caa, host, domain } : null };
  },
  coverage: (ctx, _tools, subject) => [
    ctx.evidence.caa
      ? { subject, status: 'completed', reason: null }
      : { subject, status: 'failed', reason: 'de naamserver gaf geen antwoord' },
  ],
});
