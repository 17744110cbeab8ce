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

/** Once one family answered, how long the other may still take: a server that ignores AAAA questions must not cost a time-out per connection. */
const SECOND_FAMILY_GRACE_MS = 150;
/** Answers are reused this long: a scan opens dozens of connections to one host. Every connection still checks them. */
const ANSWER_CACHE_MS = 30_000;
const answers = new Map<string, { at: number; addresses: Promise<dns.LookupAddress[]> }>();

async function lookUpBoth(host: string, resolver: dns.promises.Resolver): Promise<dns.LookupAddress[]> {
  const asked = [
    resolver.resolve4(host).then((list) => list.map((address) => ({ address, family: 4 }))),
    resolver.resolve6(host).then((list) => list.map((address) => ({ address, family: 6 }))),
  ];
  const settled: Array<dns.LookupAddress[] | null> = [null, null];
  const errors: unknown[] = [];
  await new Promise<void>((done) => {
    let pending = asked.length;
    let grace: NodeJS.Timeout | undefined;
    for (const [i, question] of asked.entries()) {
      question.then(
        (list) => {
          settled[i] = list;
          if (list.length && !grace) grace = setTimeout(done, SECOND_FAMILY_GRACE_MS);
          if (--pending === 0) done();
        },
        (error: unknown) => {
          errors.push(error);
          if (--pending === 0) done();
        },
      );
    }
  });
  const addresses = settled.flatMap((list) => list ?? []);
  if (addresses.length === 0)
    throw errors[0] ?? Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND', hostname: host });
  return addresses;
}

/** A and AAAA answers of the configured servers, as dns.lookup's `all` form. */
export async function resolveAddresses(
  host: string,
  options: DnsOptions,
  family: number,
): Promise<dns.LookupAddress[]> {
  if (isLocalhostName(host)) {
    const loopback = [
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ];
    return loopback.filter((a) => !family || a.family === family);
  }
  const key = `${(options.dnsServers ?? []).join(',')} ${host.toLowerCase()}`;
  let cached = answers.get(key);
  if (!cached || Date.now() - cached.at > ANSWER_CACHE_MS) {
    cached = { at: Date.now(), addresses: lookUpBoth(host, resolverFor(options)) };
    answers.set(key, cached);
    // A failed look-up is not kept: the next connection asks again.
    cached.addresses.catch(() => answers.delete(key));
    if (answers.size > 1_000) answers.delete(answers.keys().next().value!);
  }
  const addresses = (await cached.addresses).filter((a) => !family || a.family === family);
  if (addresses.length === 0)
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND', hostname: host });
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
export async function lookupCaa(
  host: string,
  registrableDomain: string,
  options: DnsOptions,
): Promise<CaaEvidence | null> {
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
