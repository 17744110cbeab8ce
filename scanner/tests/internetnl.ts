import { checkDane } from '../checks/dane.ts';
import { fetchAtAddress } from '../net/pinned-fetch.ts';
import { presentedChainAt, probeTls } from '../net/tls-client.ts';
import { probeInternetNl } from '../probes/internetnl.ts';
import { defineTest } from './test.ts';

/** internet.nl's website test: IPv6, DNSSEC, DANE and RPKI of the web host (the report scores it). */
export const internetNlTest = defineTest({
  name: 'internetnl',
  category: 'SSL_TLS',
  subject: 'host',
  produces: ['tls_dane_invalid'],
  checks: { dane: checkDane },
  // The name that was entered, as internet.nl tests it (interface/views/shared.py), not the host a
  // redirect leads to: an apex that redirects to www is judged on the apex's own DNS and addresses.
  subjectOf: (site) => site.target.hostname,
  gate: ({ options }) => (options.internetnl ? null : { status: 'skipped', reason: 'niet ingesteld' }),
  probe: async ({ site, options }) => {
    const { tlsWorks, httpsUrl, target, tls } = site;
    const host = target.hostname;
    const port = Number(target.protocol === 'https:' ? target.port || 443 : 443);
    const timeoutMs = Math.min(3_000, options.requestTimeoutMs);
    // DANE is judged against the entered name's own chain: the scan's is another host's after a redirect.
    const own =
      httpsUrl.hostname === host && Number(httpsUrl.port || 443) === port
        ? { chain: tls.certificate?.presented ?? [], trusted: tls.certificate?.chainError === null }
        : tlsWorks
          ? await presentedChainAt(host, port, { ...options, timeoutMs }).catch(() => null)
          : null;
    // A URL that names its own port (https://shop.nl:8443/) is tested there in place of its scheme's
    // default; internet.nl, which takes a bare name, always tests 80 and 443.
    const named = target.port ? { [target.protocol === 'https:' ? 'https' : 'http']: Number(target.port) } : {};
    const configured = options.internetnl!.webPorts ?? {};
    const webPorts = {
      http: configured.http ?? named.http ?? 80,
      https: configured.https ?? named.https ?? 443,
    };
    const internetnl = await probeInternetNl(
      host,
      {
        ...options,
        ...options.internetnl!,
        webPorts,
        scheme: tlsWorks ? 'https' : 'http',
        port,
        chain: own?.chain ?? [],
        chainTrusted: own?.trusted ?? false,
        timeoutMs,
      },
      (url, address) => fetchAtAddress(url, address, { ...options, timeoutMs: options.requestTimeoutMs }),
    );
    // Every address that answers gets its own TLS probe, as internet.nl tests each (the scan's own
    // connection reached one of them); the report keeps the worst.
    const answering = tlsWorks ? [...internetnl.ipv6.web.v4Good, ...internetnl.ipv6.web.v6Good] : [];
    const tlsByAddress = (
      await Promise.all(
        answering.map((address) =>
          probeTls(host, webPorts.https, { ...options, timeoutMs, pinnedAddress: address }).then(
            ({ tls: evidence }) => ({ address, tls: evidence }),
            () => null,
          ),
        ),
      )
    ).filter((entry) => entry !== null);
    return { internetnl: { ...internetnl, tlsByAddress } };
  },
});
