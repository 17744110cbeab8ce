import { checkDane } from '../checks/dane.ts';
import { fetchAtAddress } from '../net/pinned-fetch.ts';
import { probeInternetNl } from '../probes/internetnl.ts';
import { defineTest } from './test.ts';

/** internet.nl's website test: IPv6, DNSSEC, DANE and RPKI of the web host (the report scores it). */
export const internetNlTest = defineTest({
  name: 'internetnl',
  category: 'SSL_TLS',
  subject: 'host',
  produces: ['tls_dane_invalid'],
  checks: { dane: checkDane },
  subjectOf: (site) => site.httpsUrl.hostname,
  gate: ({ options }) => (options.internetnl ? null : { status: 'skipped', reason: 'niet ingesteld' }),
  probe: async ({ site, options }) => {
    const { tlsWorks, httpsUrl, target, tls } = site;
    const internetnl = await probeInternetNl(
      httpsUrl.hostname,
      {
        ...options,
        ...options.internetnl!,
        scheme: tlsWorks ? 'https' : 'http',
        port: Number(tlsWorks ? httpsUrl.port || 443 : target.port || 80),
        chain: tls.certificate?.presented ?? [],
        timeoutMs: Math.min(3_000, options.requestTimeoutMs),
      },
      (url, address) => fetchAtAddress(url, address, { ...options, timeoutMs: options.requestTimeoutMs }),
    );
    return { internetnl };
  },
});
