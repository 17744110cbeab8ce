import dns from 'node:dns';

// Name look-ups of a scan. By default the system's resolver (dns.lookup for connections, the system's
// name servers for CAA); with SCANNER_DNS_SERVERS, the listed servers for both, so the address guard
// sees exactly the answers the scan uses.

export interface DnsOptions {
  /** Name servers as "ip" or "ip:port" ("[ip6]:port"); empty or missing: the system's. */
  dnsServers?: readonly string[];
}

/** How long one DNS question may take, per try; two tries. */
const DNS_TIMEOUT_MS = 3_000;
const resolvers = new Map<string, dns.promises.Resolver>();

export function resolverFor(options: DnsOptions): dns.promises.Resolver {
  const key = (options.dnsServers ?? []).join(',');
  let resolver = resolvers.get(key);
  if (!resolver) {
    resolver = new dns.promises.Resolver({ timeout: DNS_TIMEOUT_MS, tries: 2 });
    if (options.dnsServers?.length) resolver.setServers([...options.dnsServers]);
    resolvers.set(key, resolver);
  }
  return resolver;
}

/** RFC 6761: localhost names resolve to loopback without asking DNS, as browsers do. */
export const isLocalhostName = (host: string): boolean => /(^|\.)localhost\.?$/i.test(host);

/** A and AAAA answers of the configured servers, as dns.lookup's `all` form. */
export async function resolveAddresses(host: string, options: DnsOptions, family: number): Promise<dns.LookupAddress[]> {
  if (isLocalhostName(host)) {
    const loopback = [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }];
    return loopback.filter((a) => !family || a.family === family);
  }
  const resolver = resolverFor(options);
  const [v4, v6] = await Promise.allSettled([family === 6 ? Promise.resolve([]) : resolver.resolve4(host), family === 4 ? Promise.resolve([]) : resolver.resolve6(host)]);
  const addresses = [
    ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
    ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
  ];
  if (addresses.length === 0) {
    const failure = [v4, v6].find((r): r is PromiseRejectedResult => r.status === 'rejected');
    throw failure?.reason ?? Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND', hostname: host });
  }
  return addresses;
}

export interface CaaEvidence {
  /** The name whose CAA set applies (RFC 8659 climbs from the host to its parents), null when none has one. */
  foundAt: string | null;
  /** The records there, as "flags tag value". */
  records: string[];
}

const NO_ANSWER = new Set(['ENODATA', 'ENOTFOUND', 'NOTFOUND', 'ENONAME']);

/**
 * The CAA record set relevant for `host` (RFC 8659 section 3): the host's own, else its parents'
 * up to the registrable domain. Null when a name server failed, so absence is never guessed.
 */
export async function lookupCaa(host: string, registrableDomain: string, options: DnsOptions): Promise<CaaEvidence | null> {
  const resolver = resolverFor(options);
  const labels = host.replace(/\.$/, '').split('.');
  const depth = registrableDomain.split('.').length;
  for (let i = 0; labels.length - i >= depth; i++) {
    const name = labels.slice(i).join('.');
    try {
      const records = await resolver.resolveCaa(name);
      if (records.length) {
        return {
          foundAt: name,
          records: records.map((r) => {
            const { critical, ...rest } = r;
            const [tag, value] = Object.entries(rest)[0] ?? ['?', ''];
            return `${critical} ${tag} "${value}"`;
          }),
        };
      }
    } catch (error) {
      if (!NO_ANSWER.has((error as NodeJS.ErrnoException).code ?? '')) return null;
    }
  }
  return { foundAt: null, records: [] };
}
