import { createHash, X509Certificate } from 'node:crypto';
import { isIP, Socket } from 'node:net';
import { refusalReason, type AddressPolicy } from '../net/address-policy.ts';
import {
  DnsError,
  queryDns,
  queryDnsUnchecked,
  serversOf,
  type DnsResponse,
  type DnsServer,
} from '../net/dns-client.ts';
import { isLocalhostName } from '../net/dns.ts';
import { validateRoutes, type RpkiRoute } from './rpki.ts';

// What internet.nl's website test needs beyond the TLS and headers the scan already has: the DNSSEC
// state of the site's name, the IPv6 reachability of its name servers and web server, the DANE
// records of its TLS port, and route-origin validation (RPKI). Every DNS question goes to the one
// resolver SCANNER_DNS_SERVERS names (or /etc/resolv.conf's); every address is checked by the
// address policy before a connection.

export type DnssecState = 'secure' | 'insecure' | 'bogus' | 'not_tested' | 'error';

export interface InternetNlEvidence {
  host: string;
  dnssec: { state: DnssecState; reason: string | null; extendedError: { code: number; text: string } | null };
  ipv6: {
    nameServers: Array<{ name: string; addresses: string[]; reachable: string[] }> | null;
    webAddresses: string[];
    /**
     * Every address of the web host tried on ports 80 and 443 (tasks/ipv6.py get_domain_results): an
     * address is good when either port answers; `portDiff` the ports that answer over IPv4 and over
     * no IPv6 address.
     */
    web: { v6Good: string[]; v6Bad: string[]; v4Good: string[]; v4Bad: string[]; portDiff: number[] };
    /**
     * The page over each family (tasks/ipv6.py simhash: port 80, then 443, the last answer kept);
     * null when one family gave no answer at all. Only asked when both families are reachable on the
     * same ports.
     */
    sameContent: {
      v4Ports: number[];
      v6Ports: number[];
      v4Status: number;
      v6Status: number;
      similarity: number;
    } | null;
    error: string | null;
  };
  dane: {
    /** TLSA records at _port._tcp.host, as "usage selector matching data". */
    records: string[];
    secure: boolean;
    /**
     * Whether a record matches the chain as its usage says (RFC 6698 section 2.1.1: 0 and 1 also need
     * a chain that validates, 2 and 3 do not); null without records.
     */
    matches: boolean | null;
    /** The records came back only with CD: their signatures are bogus (internet.nl: none_bogus). */
    bogus: boolean;
  } | null;
  rpki: { state: 'not_tested'; reason: string } | { state: 'tested'; web: RpkiRoute[]; nameServers: RpkiRoute[] };
}

/** What the DNS parts of internet.nl's tests need: the mail test asks the same way. */
export interface DnsAsk extends AddressPolicy {
  /** A name known to be signed: the resolver must validate it before "insecure" is believed. */
  dnssecProbeName: string;
  /** Name servers answer here instead of 53 (a test lab; NS records carry no port). */
  nameServerPort?: number;
  timeoutMs: number;
  signal: AbortSignal;
}

export interface InternetNlOptions extends DnsAsk {
  /** The scanned URL's scheme and port. */
  scheme: 'http' | 'https';
  port: number;
  /** The DER certificates the TLS server sent, leaf first (for DANE). */
  chain: Buffer[];
  /** The chain validates against the trust store (PKIX, the host name aside): DANE usages 0 and 1 need it. */
  chainTrusted: boolean;
  /** Ports 80 and 443 of the web host: elsewhere when the site's URL names its own port, or in a test lab. */
  webPorts?: { http?: number; https?: number };
  rpkiValidatorUrl?: string;
  rpkiOriginUrl?: string;
}

const NO_WEB = { v6Good: [], v6Bad: [], v4Good: [], v4Bad: [], portDiff: [] };
export const trimDot = (name: string) => name.replace(/\.$/, '').toLowerCase();
/** Bounds against a hostile zone: name servers looked at, and addresses tried per name server. */
const MAX_NAME_SERVERS = 8;
const MAX_ADDRESSES = 4;

/**
 * Extended DNS errors (RFC 8914) that make an answer bogus even when it came back NOERROR, as
 * internet.nl's resolver reads them (checks/resolver.py EDE_CODES_BOGUS): DNSSEC Bogus, Signature
 * Expired, Signature Not Yet Valid, DNSKEY Missing, RRSIGs Missing, No Zone Key Bit Set, NSEC Missing.
 */
const BOGUS_EDE_CODES = new Set([6, 7, 8, 9, 10, 11, 12]);

/** A resolver's self-test answer is kept this long: every scan of a name would otherwise ask it again. */
const SELF_TEST_MS = 5 * 60_000;
const selfTests = new Map<string, { at: number; validates: Promise<boolean> }>();

/** Whether the resolver validates: the known signed name comes back with AD (failures are not kept). */
function resolverValidates(servers: DnsServer[], options: DnsAsk, ask: () => Promise<DnsResponse>) {
  const key = `${servers.map((s) => `${s.address}:${s.port}`).join(',')} ${options.dnssecProbeName}`;
  const kept = selfTests.get(key);
  if (kept && Date.now() - kept.at < SELF_TEST_MS) return kept.validates;
  const validates = ask().then(
    (response) => response.authenticated,
    () => false,
  );
  selfTests.set(key, { at: Date.now(), validates });
  validates.then((yes) => yes || selfTests.delete(key));
  return validates;
}

/**
 * internet.nl's DNSSEC verdict for a name: SOA with DO set and CD clear; AD is secure; SERVFAIL
 * that answers with CD is bogus; NOERROR without AD is insecure only when the resolver validates
 * (a known signed name comes back with AD), else not tested.
 */
export async function dnssecOf(host: string, servers: DnsServer[], options: DnsAsk) {
  const question = { servers, dnssecOk: true, timeoutMs: options.timeoutMs, signal: options.signal };
  let response: DnsResponse & { unchecked: boolean };
  try {
    response = await queryDnsUnchecked(host, 'SOA', question);
  } catch (error) {
    return {
      state: 'error' as const,
      reason: error instanceof DnsError ? error.message : 'DNS-fout',
      extendedError: null,
    };
  }
  // A SERVFAIL that answers with CD is bogus; so is any answer with a bogus kind of extended error.
  if (response.unchecked || (response.extendedError && BOGUS_EDE_CODES.has(response.extendedError.code)))
    return { state: 'bogus' as const, reason: 'handtekeningen kloppen niet', extendedError: response.extendedError };
  if (response.authenticated) return { state: 'secure' as const, reason: null, extendedError: null };
  if (response.rcode === 'SERVFAIL')
    return {
      state: 'error' as const,
      reason: 'de DNS-server antwoordt met SERVFAIL',
      extendedError: response.extendedError,
    };
  // A name that does not exist is a DNS error there (tasks/dnssec.py dnssec_status: NXDOMAIN), not insecure.
  if (response.rcode !== 'NOERROR')
    return { state: 'error' as const, reason: `DNS-antwoord ${response.rcode}`, extendedError: null };
  if (!(await resolverValidates(servers, options, () => queryDns(options.dnssecProbeName, 'SOA', question))))
    return { state: 'not_tested' as const, reason: 'de resolver valideert niet', extendedError: null };
  return { state: 'insecure' as const, reason: null, extendedError: null };
}

export async function addresses(name: string, type: 'A' | 'AAAA', servers: DnsServer[], options: DnsAsk) {
  const response = await queryDnsUnchecked(name, type, {
    servers,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  });
  return response.answers.map((a) => String(a.data));
}

/** IPv4-mapped IPv6 addresses (::ffff:0:0/96) are IPv4 in disguise: internet.nl does not count them. */
export const isRealIpv6 = (address: string) => isIP(address) === 6 && !/^::ffff:/i.test(address);

/** The zone that holds `host`: the closest enclosing name with NS records. */
async function zoneNameServers(host: string, servers: DnsServer[], options: DnsAsk): Promise<string[]> {
  const labels = trimDot(host).split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    const response = await queryDnsUnchecked(labels.slice(i).join('.'), 'NS', {
      servers,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    });
    if (response.answers.length > 0)
      return response.answers
        .map((a) => trimDot(String(a.data)))
        .sort()
        .slice(0, MAX_NAME_SERVERS);
  }
  return [];
}

/** Whether a name server answers a question over UDP at this IPv6 address. */
async function answersDns(address: string, zone: string, options: DnsAsk): Promise<boolean> {
  if (refusalReason(address, options)) return false;
  return queryDns(zone, 'SOA', {
    servers: [{ address, port: options.nameServerPort ?? 53 }],
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  }).then(
    () => true,
    () => false,
  );
}

function connects(address: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('error', () => done(false));
    socket.connect({ host: address, port }, () => done(true));
  });
}

/** difflib's SequenceMatcher.quick_ratio: 2 * (characters in common, as multisets) / total length. */
function quickRatio(a: string, b: string): number {
  if (a.length + b.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const ch of b) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let matches = 0;
  for (const ch of a) {
    const left = counts.get(ch) ?? 0;
    if (left > 0) {
      matches += 1;
      counts.set(ch, left - 1);
    }
  }
  return (2 * matches) / (a.length + b.length);
}

/** The page at one address, with the site's name in Host and SNI; null when it did not answer. */
type PageFetcher = (url: string, address: string) => Promise<{ status: number; body: string } | null>;

const WEB_PORTS = [80, 443] as const;
/** Where port 80 or 443 of the web host is reached (a test lab moves them). */
const portOf = (port: 80 | 443, options: InternetNlOptions) =>
  (port === 80 ? options.webPorts?.http : options.webPorts?.https) ?? port;

/** Which of ports 80 and 443 answer at each address of one family (tasks/ipv6.py test_connectivity). */
async function connectivity(addresses: string[], options: InternetNlOptions) {
  const results = await Promise.all(
    addresses.map(async (address) => {
      // An address the policy refuses (private, loopback) cannot be reached from the internet either.
      if (refusalReason(address, options)) return { address, ports: [] as number[] };
      const open = await Promise.all(
        WEB_PORTS.map((port) => connects(address, portOf(port, options), options.timeoutMs)),
      );
      return { address, ports: WEB_PORTS.filter((_, i) => open[i]) as number[] };
    }),
  );
  return {
    good: results.filter((r) => r.ports.length > 0).map((r) => r.address),
    bad: results.filter((r) => r.ports.length === 0).map((r) => r.address),
    ports: new Set(results.flatMap((r) => r.ports)),
  };
}

/** tasks/ipv6.py simhash: each family's page on port 80, then 443 (the last answer kept). */
async function pagesOf(host: string, v4: string, v6: string, options: InternetNlOptions, fetchPage: PageFetcher) {
  const family = async (address: string) => {
    let last: { status: number; body: string } | null = null;
    const ports: number[] = [];
    for (const port of WEB_PORTS) {
      const scheme = port === 443 ? 'https' : 'http';
      const page = await fetchPage(`${scheme}://${host}:${portOf(port, options)}/`, address);
      if (!page) continue;
      last = page;
      ports.push(port);
    }
    return { last, ports };
  };
  const [four, six] = await Promise.all([family(v4), family(v6)]);
  if (!four.last || !six.last) return null;
  return {
    v4Ports: four.ports,
    v6Ports: six.ports,
    v4Status: four.last.status,
    v6Status: six.last.status,
    similarity: quickRatio(four.last.body, six.last.body),
  };
}

/** The name servers of the zone that holds `host`, each with its IPv6 addresses and those that answer DNS. */
export async function nameServersOf(host: string, servers: DnsServer[], options: DnsAsk) {
  const zone = await zoneNameServers(host, servers, options);
  return Promise.all(
    zone.map(async (name) => {
      const found = (await addresses(name, 'AAAA', servers, options).catch(() => []))
        .filter(isRealIpv6)
        .slice(0, MAX_ADDRESSES);
      const reachable: string[] = [];
      for (const address of found) if (await answersDns(address, trimDot(host), options)) reachable.push(address);
      return { name, addresses: found, reachable };
    }),
  );
}

async function ipv6Of(
  host: string,
  servers: DnsServer[],
  options: InternetNlOptions,
  fetchPage: PageFetcher,
): Promise<InternetNlEvidence['ipv6']> {
  try {
    const nameServers = await nameServersOf(host, servers, options);
    const webAddresses = (await addresses(host, 'AAAA', servers, options)).filter(isRealIpv6).slice(0, MAX_ADDRESSES);
    const v4Addresses = (await addresses(host, 'A', servers, options)).slice(0, MAX_ADDRESSES);
    const [six, four] = await Promise.all([connectivity(webAddresses, options), connectivity(v4Addresses, options)]);
    const portDiff = [...four.ports].filter((port) => !six.ports.has(port));
    const web = { v6Good: six.good, v6Bad: six.bad, v4Good: four.good, v4Bad: four.bad, portDiff };
    // do_web compares the pages only when both families answer on the same ports.
    const sameContent =
      six.good[0] && four.good[0] && portDiff.length === 0
        ? await pagesOf(host, four.good[0], six.good[0], options, fetchPage)
        : null;
    return { nameServers, webAddresses, web, sameContent, error: null };
  } catch (error) {
    return {
      nameServers: null,
      webAddresses: [],
      web: NO_WEB,
      sameContent: null,
      error: error instanceof DnsError ? error.message : 'DNS-fout',
    };
  }
}

/** RFC 6698 section 2.1: what a TLSA record's selector and matching type say to compare. */
function tlsaMatches(
  record: { usage: number; selector: number; matchingType: number; certificate: Buffer },
  der: Buffer,
) {
  let selected: Buffer;
  try {
    selected = record.selector === 1 ? new X509Certificate(der).publicKey.export({ type: 'spki', format: 'der' }) : der;
  } catch {
    return false;
  }
  const digest =
    record.matchingType === 0
      ? selected
      : record.matchingType === 1
        ? createHash('sha256').update(selected).digest()
        : record.matchingType === 2
          ? createHash('sha512').update(selected).digest()
          : null;
  return digest?.equals(record.certificate) === true;
}

export interface TlsaRecord {
  usage: number;
  selector: number;
  matchingType: number;
  certificate: Buffer;
}

/**
 * Whether any TLSA record matches a chain (leaf first) as its usage says, as ldns-dane verifies them
 * for internet.nl on port 443 (tasks/tls/scans.py dane): 3 the leaf and 2 a certificate above it,
 * trusted or not; 1 the leaf and 0 any certificate of the chain, both only on a chain that validates
 * (RFC 6698 section 2.1.1). Null without a chain.
 */
export function daneMatches(
  records: readonly TlsaRecord[],
  chain: readonly Buffer[],
  trusted: boolean,
): boolean | null {
  const [leaf, ...rest] = chain;
  if (!leaf) return null;
  return records.some((r) =>
    r.usage === 3
      ? tlsaMatches(r, leaf)
      : r.usage === 2
        ? rest.some((der) => tlsaMatches(r, der))
        : r.usage === 1
          ? trusted && tlsaMatches(r, leaf)
          : r.usage === 0 && trusted && chain.some((der) => tlsaMatches(r, der)),
  );
}

/** The TLSA records of a service name (_port._tcp.host), with whether they validated or came back only unchecked. */
export async function tlsaOf(name: string, servers: DnsServer[], options: DnsAsk) {
  const response = await queryDnsUnchecked(name, 'TLSA', {
    servers,
    dnssecOk: true,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  }).catch(() => null);
  const records = (response?.answers ?? []).map((a) => a.data as TlsaRecord);
  return {
    records,
    shown: records.map((r) => `${r.usage} ${r.selector} ${r.matchingType} ${r.certificate.toString('hex')}`),
    secure: response?.authenticated ?? false,
    bogus: response?.unchecked ?? false,
  };
}

async function daneOf(
  host: string,
  servers: DnsServer[],
  options: InternetNlOptions,
): Promise<InternetNlEvidence['dane']> {
  if (options.scheme !== 'https') return null;
  const tlsa = await tlsaOf(`_${options.port}._tcp.${trimDot(host)}`, servers, options);
  if (tlsa.records.length === 0) return { records: [], secure: false, matches: null, bogus: false };
  return {
    records: tlsa.shown,
    secure: tlsa.secure,
    matches: daneMatches(tlsa.records, options.chain, options.chainTrusted),
    bogus: tlsa.bogus,
  };
}

/**
 * RPKI needs a validator and a source of route origins; without both it is not tested. With them,
 * the tested hosts' addresses (asked only then) and the name servers' are judged. The website and
 * mail tests both ask here.
 */
export async function routeOrigins(
  hostAddresses: () => Promise<string[]>,
  nameServers: Array<{ name: string; addresses: string[] }> | null,
  servers: DnsServer[],
  options: DnsAsk & { rpkiValidatorUrl?: string; rpkiOriginUrl?: string },
): Promise<
  { state: 'not_tested'; reason: string } | { state: 'tested'; hosts: RpkiRoute[]; nameServers: RpkiRoute[] }
> {
  if (!options.rpkiValidatorUrl || !options.rpkiOriginUrl)
    return {
      state: 'not_tested',
      reason: 'geen RPKI-validator en routebron ingesteld (SCANNER_RPKI_VALIDATOR_URL en SCANNER_RPKI_ORIGIN_URL)',
    };
  const hosts = await hostAddresses();
  const ns = (
    await Promise.all(
      (nameServers ?? []).map(async (n) => [
        ...(await addresses(n.name, 'A', servers, options).catch(() => [])),
        ...n.addresses,
      ]),
    )
  ).flat();
  const sources = {
    validatorUrl: options.rpkiValidatorUrl,
    originUrl: options.rpkiOriginUrl,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  };
  const [hostRoutes, nsRoutes] = await Promise.all([validateRoutes(hosts, sources), validateRoutes(ns, sources)]);
  return { state: 'tested', hosts: hostRoutes, nameServers: nsRoutes };
}

async function rpkiOf(
  host: string,
  servers: DnsServer[],
  options: InternetNlOptions,
  nameServers: InternetNlEvidence['ipv6']['nameServers'],
): Promise<InternetNlEvidence['rpki']> {
  const routes = await routeOrigins(
    async () => [
      ...(await addresses(host, 'A', servers, options).catch(() => [])),
      ...(await addresses(host, 'AAAA', servers, options).catch(() => [])),
    ],
    nameServers,
    servers,
    options,
  );
  return routes.state === 'tested' ? { state: 'tested', web: routes.hosts, nameServers: routes.nameServers } : routes;
}

/** Gathers the internet.nl evidence for one host; never throws (a failing part says so). */
export async function probeInternetNl(
  host: string,
  options: InternetNlOptions,
  fetchPage: PageFetcher,
): Promise<InternetNlEvidence> {
  const name = trimDot(host);
  const servers = serversOf(options.dnsServers);
  if (isIP(name) || isLocalhostName(name)) {
    const reason = 'een IP-adres of localhost heeft geen DNS-zone';
    return {
      host: name,
      dnssec: { state: 'not_tested', reason, extendedError: null },
      ipv6: { nameServers: null, webAddresses: [], web: NO_WEB, sameContent: null, error: reason },
      dane: null,
      rpki: { state: 'not_tested', reason },
    };
  }
  const [dnssec, ipv6, dane] = await Promise.all([
    dnssecOf(name, servers, options),
    ipv6Of(name, servers, options, fetchPage),
    daneOf(name, servers, options),
  ]);
  return { host: name, dnssec, ipv6, dane, rpki: await rpkiOf(name, servers, options, ipv6.nameServers) };
}
