import type dns from 'node:dns';
import { DnsError, queryDns, queryDnsUnchecked, serversOf, type DnsServer } from './dns-client.ts';

// Name look-ups of a scan. By default the system's resolver (dns.lookup for connections, so
// localhost and /etc/hosts keep working, and /etc/resolv.conf's name servers for CAA); with
// SCANNER_DNS_SERVERS, the listed servers for both, through the one DNS client (dns-client.ts), so
// the address guard sees exactly the answers the scan uses.

export interface DnsOptions {
  /** Name servers as "ip" or "ip:port" ("[ip6]:port"); empty or missing: the system's. */
  dnsServers?: readonly string[];
}

/** How long one DNS question may take, per try; two tries. */
const DNS_TIMEOUT_MS = 3_000;

/**
 * The addresses of one family: empty for NXDOMAIN or no data; a failing server throws. A zone whose
 * signatures are bogus or expired still gets scanned (asked again with CD), and its DNSSEC test says
 * bogus. Every address still passes the address policy before a connection.
 */
async function addressesOf(host: string, type: 'A' | 'AAAA', servers: readonly DnsServer[]): Promise<string[]> {
  const response = await queryDnsUnchecked(host, type, { servers, timeoutMs: DNS_TIMEOUT_MS });
  if (response.rcode !== 'NOERROR' && response.rcode !== 'NXDOMAIN')
    throw Object.assign(new Error(`${type} ${host}: ${response.rcode}`), { code: 'ESERVFAIL', hostname: host });
  return response.answers.map((answer) => String(answer.data));
}

/** RFC 6761: localhost names resolve to loopback without asking DNS, as browsers do. */
export const isLocalhostName = (host: string): boolean => /(^|\.)localhost\.?$/i.test(host);

/** Once one family answered, how long the other may still take: a server that ignores AAAA questions must not cost a time-out per connection. */
const SECOND_FAMILY_GRACE_MS = 150;
/** Answers are reused this long: a scan opens dozens of connections to one host. Every connection still checks them. */
const ANSWER_CACHE_MS = 30_000;
const answers = new Map<string, { at: number; addresses: Promise<dns.LookupAddress[]> }>();

async function lookUpBoth(host: string, servers: readonly DnsServer[]): Promise<dns.LookupAddress[]> {
  const asked = [
    addressesOf(host, 'A', servers).then((list) => list.map((address) => ({ address, family: 4 }))),
    addressesOf(host, 'AAAA', servers).then((list) => list.map((address) => ({ address, family: 6 }))),
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
    cached = { at: Date.now(), addresses: lookUpBoth(host, serversOf(options.dnsServers)) };
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

/**
 * The CAA record set relevant for `host` (RFC 8659 section 3): the host's own, else its parents'
 * up to the registrable domain. Null when a name server failed, so absence is never guessed.
 */
export async function lookupCaa(
  host: string,
  registrableDomain: string,
  options: DnsOptions,
): Promise<CaaEvidence | null> {
  const servers = serversOf(options.dnsServers);
  const labels = host.replace(/\.$/, '').split('.');
  const depth = registrableDomain.split('.').length;
  for (let i = 0; labels.length - i >= depth; i++) {
    const name = labels.slice(i).join('.');
    try {
      const response = await queryDns(name, 'CAA', { servers, timeoutMs: DNS_TIMEOUT_MS });
      if (response.rcode !== 'NOERROR' && response.rcode !== 'NXDOMAIN') return null;
      const records = response.answers.map((answer) => answer.data as { flags: number; tag: string; value: string });
      if (records.length) return { foundAt: name, records: records.map((r) => `${r.flags} ${r.tag} "${r.value}"`) };
    } catch (error) {
      if (error instanceof DnsError) return null;
      throw error;
    }
  }
  return { foundAt: null, records: [] };
}
