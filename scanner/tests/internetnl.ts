import { checkDane } from '../checks/dane.ts';
import { fetchAtAddress } from '../net/pinned-fetch.ts';
import { firstHeader, hstsMaxAgeOf } from '../net/headers.ts';
import type { HeaderMap } from '../net/http-evidence.ts';
import { presentedChainAt, probeTls } from '../net/tls-client.ts';
import type { AddressEvidence } from '../types.ts';
import { probeInternetNl } from '../probes/internetnl.ts';
import { defineTest } from './test.ts';

/**
 * tasks/tls/http.py forced_http_check at one address: no HTTPS is no_https; HTTPS but no http is
 * no_http (full points); else the first answer over http must redirect to https on the same name.
 */
function forcedHttpsOf(
  host: string,
  secure: { status: number } | null,
  plain: { status: number; headers: HeaderMap } | null,
): AddressEvidence['forcedHttps'] {
  if (!secure) return 'no_https';
  if (!plain) return 'no_http';
  const location = plain.status >= 300 && plain.status < 400 ? firstHeader(plain.headers, 'location') : null;
  if (!location) return 'bad';
  try {
    const next = new URL(location, `http://${host}/`);
    return next.protocol === 'https:' && next.hostname === host ? 'good' : 'bad';
  } catch {
    return 'bad';
  }
}

/** internet.nl's website test: IPv6, DNSSEC, DANE and RPKI of the web host (the report scores it). */
export const internetNlTest = defineTest({
  name: 'internetnl',
  category: 'SSL_TLS',
  subject: 'host',
  reach: 'passive',
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
    // Every address that answers is judged apart, as internet.nl tests each (the scan's own
    // connections reached one of them); the report keeps the worst.
    const answering = tlsWorks ? [...internetnl.ipv6.web.v4Good, ...internetnl.ipv6.web.v6Good] : [];
    const at = (url: string, address: string) =>
      fetchAtAddress(url, address, { ...options, timeoutMs: options.requestTimeoutMs });
    const byAddress = await Promise.all(
      answering.map(async (address): Promise<AddressEvidence> => {
        const [tls, secure, plain] = await Promise.all([
          probeTls(host, webPorts.https, { ...options, timeoutMs, pinnedAddress: address }).then(
            (probed) => probed.tls,
            () => null,
          ),
          at(`https://${host}:${webPorts.https}/`, address),
          at(`http://${host}:${webPorts.http}/`, address),
        ]);
        return {
          address,
          tls,
          forcedHttps: forcedHttpsOf(host, secure, plain),
          hstsMaxAge: hstsMaxAgeOf(secure?.headers),
        };
      }),
    );
    return { internetnl: { ...internetnl, byAddress } };
  },
});
