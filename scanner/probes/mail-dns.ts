import { guardedAgents, guardedGot } from '../net/guarded-http.ts';
import { DnsError, queryDnsUnchecked, serversOf, txtOf, type DnsServer } from '../net/dns-client.ts';
import { siteOf } from '../net/registrable-domain.ts';
import {
  countsAsLookup,
  DMARC_TREE_WALK_MAX,
  MAX_MX,
  MTA_STS_MAX_BYTES,
  mtaStsIdOf,
  parseDmarc,
  parseMtaStsPolicy,
  parseSpf,
  SPF_MAX_RECORDS,
  type MtaStsPolicy,
} from '../rules/mail-records.ts';
import type { MxStatus } from '../vocabulary.ts';
import {
  addresses,
  dnssecOf,
  isRealIpv6,
  nameServersOf,
  routeOrigins,
  tlsaOf,
  trimDot,
  type DnsAsk,
} from './internetnl.ts';
import type { RpkiRoute } from './rpki.ts';

// The DNS part of internet.nl's mail test, asked of the one resolver SCANNER_DNS_SERVERS names:
// the MX set, SPF with its include tree, DMARC, DKIM, DNSSEC and IPv6 of the domain and its mail
// servers, TLSA on port 25, RPKI, and the records internet.nl leaves out (MTA-STS, TLS-RPT, BIMI).
// Nothing here connects to a mail server: that is the opt-in SMTP part (scanner/mail-servers.ts).

type Dnssec = Awaited<ReturnType<typeof dnssecOf>>;

export interface SpfNode {
  domain: string;
  /** The one v=spf1 record there; null when none (or more than one). */
  record: string | null;
  /** Why the record could not be read or followed; null when it was. */
  problem: 'nxdomain' | 'no_record' | 'multiple' | 'dns_error' | 'syntax' | 'loop' | 'not_followed' | null;
  /** Terms whose DNS look-up returned nothing (RFC 7208 void look-ups). */
  voids: string[];
  /** include: and redirect= targets, in the record's order. */
  children: SpfNode[];
}

export interface MxHost {
  host: string;
  preference: number;
  addresses: string[];
  dnssec: Dnssec;
  /** TLSA at _25._tcp.host, as "usage selector matching data"; usages kept for the report. */
  tlsa: { records: string[]; secure: boolean; bogus: boolean };
}

export interface MailEvidence {
  domain: string;
  /** A DNS failure that stopped the test; null when it ran. */
  error: string | null;
  mxStatus: MxStatus;
  mx: MxHost[];
  /** A null MX beside other MX records (RFC 7505 forbids it). */
  nullMxWithOthers: boolean;
  dnssec: Dnssec;
  nameServers: Array<{ name: string; addresses: string[]; reachable: string[] }> | null;
  spf: { records: string[]; error: string | null; tree: SpfNode | null };
  dmarc: {
    /** The v=DMARC1 records at the name where the search stopped. */
    records: string[];
    /** Where they were found: the domain itself, or its organisational domain by the public-suffix list. */
    at: string;
    orgDomain: boolean;
    error: string | null;
    /** RFC 9989's DNS tree walk: the names asked and where it found a record (null: nowhere). */
    treeWalk: { asked: string[]; foundAt: string | null };
    /** rua/ruf hosts outside the organisational domain, and whether each authorises the reports. */
    external: Array<{ host: string; authorised: boolean }>;
  };
  dkim: 'exists' | 'absent' | 'error';
  mtaSts: {
    records: string[];
    id: string | null;
    policy: MtaStsPolicy | null;
    /** Why the policy file was not usable: a failed fetch, a redirect, a certificate, its syntax. */
    problems: string[];
  };
  tlsRpt: { records: string[] };
  bimi: { records: string[] };
  rpki: { state: 'not_tested'; reason: string } | { state: 'tested'; mx: RpkiRoute[]; nameServers: RpkiRoute[] };
}

export interface MailDnsOptions extends DnsAsk {
  /** Where https://mta-sts.<domain>/ is fetched; 443 unless a test lab moves it. */
  httpsPort?: number;
  rpkiValidatorUrl?: string;
  rpkiOriginUrl?: string;
}

const ask = (options: MailDnsOptions, servers: DnsServer[]) => ({
  servers,
  timeoutMs: options.timeoutMs,
  signal: options.signal,
});

/** The TXT strings at a name: NXDOMAIN and NODATA are empty; a failing server throws DnsError. */
async function txtRecords(name: string, servers: DnsServer[], options: MailDnsOptions) {
  const response = await queryDnsUnchecked(name, 'TXT', ask(options, servers));
  if (response.rcode !== 'NOERROR' && response.rcode !== 'NXDOMAIN')
    throw new DnsError(`TXT ${name}: ${response.rcode}`);
  return { rcode: response.rcode, texts: response.answers.map((a) => txtOf(a.data)) };
}

const startsWith = (prefix: RegExp) => (texts: string[]) => texts.filter((t) => prefix.test(t.trim()));
const spfRecords = startsWith(/^v=spf1(\s|$)/i);
const dmarcRecords = startsWith(/^v=dmarc1\s*(;|$)/i);

/** Whether a name has any record of a type (a look-up that returns nothing is void). */
async function hasRecords(name: string, type: 'A' | 'AAAA' | 'MX', servers: DnsServer[], options: MailDnsOptions) {
  const response = await queryDnsUnchecked(name, type, ask(options, servers)).catch(() => null);
  return response === null || response.answers.length > 0;
}

/**
 * The SPF record at `domain` and, depth first, every include: and redirect= it leads to, with the
 * terms whose look-ups were void. Loops and trees past SPF_MAX_RECORDS are cut off and say so.
 */
async function spfTree(domain: string, servers: DnsServer[], options: MailDnsOptions): Promise<SpfNode> {
  const seen = new Set<string>();
  const visit = async (name: string, path: string[]): Promise<SpfNode> => {
    const node: SpfNode = { domain: name, record: null, problem: null, voids: [], children: [] };
    if (path.includes(name)) return { ...node, problem: 'loop' };
    if (seen.size >= SPF_MAX_RECORDS) return { ...node, problem: 'not_followed' };
    seen.add(name);
    let found: { rcode: string; texts: string[] };
    try {
      found = await txtRecords(name, servers, options);
    } catch {
      return { ...node, problem: 'dns_error' };
    }
    const records = spfRecords(found.texts);
    if (found.rcode === 'NXDOMAIN') return { ...node, problem: 'nxdomain' };
    if (records.length !== 1) return { ...node, problem: records.length === 0 ? 'no_record' : 'multiple' };
    node.record = records[0]!;
    const terms = parseSpf(node.record);
    if (!terms) return { ...node, problem: 'syntax' };
    const hasAll = terms.some((t) => t.kind === 'all');
    for (const term of terms) {
      if (!countsAsLookup(term) || term.target?.includes('%')) continue;
      const target = trimDot(term.target ?? name);
      if (term.kind === 'include' || (term.kind === 'redirect' && !hasAll)) {
        const child = await visit(target, [...path, name]);
        node.children.push(child);
        if (child.problem === 'nxdomain') node.voids.push(term.text);
      } else if (term.kind === 'a') {
        const [v4, v6] = await Promise.all([
          hasRecords(target, 'A', servers, options),
          hasRecords(target, 'AAAA', servers, options),
        ]);
        if (!v4 && !v6) node.voids.push(term.text);
      } else if (term.kind === 'mx' || term.kind === 'exists') {
        if (!(await hasRecords(target, term.kind === 'mx' ? 'MX' : 'A', servers, options))) node.voids.push(term.text);
      }
    }
    return node;
  };
  return visit(domain, []);
}

async function spfOf(domain: string, servers: DnsServer[], options: MailDnsOptions): Promise<MailEvidence['spf']> {
  try {
    const { texts } = await txtRecords(domain, servers, options);
    const records = spfRecords(texts);
    return { records, error: null, tree: records.length === 1 ? await spfTree(domain, servers, options) : null };
  } catch (error) {
    return { records: [], error: error instanceof DnsError ? error.message : 'DNS-fout', tree: null };
  }
}

/** The organisational domain by the public-suffix list, as internet.nl finds it (checks/tasks/mail.py). */
const organisational = (domain: string) => siteOf(domain);

async function dmarcAt(name: string, servers: DnsServer[], options: MailDnsOptions) {
  const { texts } = await txtRecords(`_dmarc.${name}`, servers, options);
  return dmarcRecords(texts);
}

/**
 * RFC 9989 section 4.10: _dmarc at the domain, then at each parent, the name cut to its last seven
 * labels first when longer, eight questions at most; the first record found is the policy's.
 */
async function treeWalk(domain: string, servers: DnsServer[], options: MailDnsOptions) {
  const labels = domain.split('.');
  const names = [domain];
  const start = Math.max(1, labels.length - 7);
  for (let i = start; i < labels.length; i++) names.push(labels.slice(i).join('.'));
  const asked: string[] = [];
  for (const name of [...new Set(names)].slice(0, DMARC_TREE_WALK_MAX)) {
    asked.push(name);
    const records = await dmarcAt(name, servers, options).catch(() => []);
    if (records.length > 0) return { asked, foundAt: name };
  }
  return { asked, foundAt: null };
}

/**
 * RFC 7489 section 7.1: a report address outside the organisational domain must say it takes the
 * reports, with a v=DMARC1 record at <domain>._report._dmarc.<host>.
 */
async function externalTargets(domain: string, hosts: string[], servers: DnsServer[], options: MailDnsOptions) {
  const own = organisational(domain);
  return Promise.all(
    hosts
      .filter((host) => organisational(host) !== own)
      .slice(0, 10)
      .map(async (host) => {
        const records = await txtRecords(`${domain}._report._dmarc.${host}`, servers, options).then(
          ({ texts }) => dmarcRecords(texts),
          () => [],
        );
        return { host, authorised: records.length === 1 };
      }),
  );
}

async function dmarcOf(domain: string, servers: DnsServer[], options: MailDnsOptions): Promise<MailEvidence['dmarc']> {
  const walk = treeWalk(domain, servers, options);
  try {
    let at = domain;
    let records = await dmarcAt(domain, servers, options);
    const orgDomain = records.length === 0 && organisational(domain) !== domain;
    if (orgDomain) {
      at = organisational(domain);
      records = await dmarcAt(at, servers, options);
    }
    const parsed = records.length === 1 ? parseDmarc(records[0]!) : null;
    const external = parsed ? await externalTargets(at, parsed.reportHosts, servers, options) : [];
    return { records, at, orgDomain, error: null, treeWalk: await walk, external };
  } catch (error) {
    return {
      records: [],
      at: domain,
      orgDomain: false,
      error: error instanceof DnsError ? error.message : 'DNS-fout',
      treeWalk: await walk,
      external: [],
    };
  }
}

/** internet.nl's DKIM test: _domainkey.<domain> exists (NOERROR, with or without data), not NXDOMAIN. */
async function dkimOf(domain: string, servers: DnsServer[], options: MailDnsOptions): Promise<MailEvidence['dkim']> {
  const response = await queryDnsUnchecked(`_domainkey.${domain}`, 'TXT', ask(options, servers)).catch(() => null);
  return response?.rcode === 'NOERROR' ? 'exists' : response?.rcode === 'NXDOMAIN' ? 'absent' : 'error';
}

/** The policy file over HTTPS with a valid certificate, no redirects, at most MTA_STS_MAX_BYTES. */
async function mtaStsPolicyOf(domain: string, options: MailDnsOptions) {
  const port = options.httpsPort && options.httpsPort !== 443 ? `:${options.httpsPort}` : '';
  const url = `https://mta-sts.${domain}${port}/.well-known/mta-sts.txt`;
  try {
    const request = guardedGot(url, {
      agent: guardedAgents(options, { keepAlive: false }),
      https: { rejectUnauthorized: true },
      timeout: { request: options.timeoutMs },
      signal: options.signal,
      responseType: 'buffer',
    });
    request.on('downloadProgress', (progress: { transferred: number }) => {
      if (progress.transferred > MTA_STS_MAX_BYTES) request.cancel();
    });
    const response = await request;
    if (response.statusCode >= 300 && response.statusCode < 400)
      return { policy: null, problems: ['het beleid staat achter een doorverwijzing (RFC 8461 verbiedt die)'] };
    if (response.statusCode !== 200) return { policy: null, problems: [`het beleid gaf HTTP ${response.statusCode}`] };
    if (response.body.length > MTA_STS_MAX_BYTES)
      return { policy: null, problems: ['het beleid is groter dan 64 KiB'] };
    const parsed = parseMtaStsPolicy(response.body.toString('utf8'));
    return 'policy' in parsed ? { policy: parsed.policy, problems: [] } : { policy: null, problems: parsed.problems };
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    const reason =
      code === 'ERR_CANCELED'
        ? 'het beleid is groter dan 64 KiB'
        : /CERT|SELF_SIGNED|UNABLE_TO|ERR_TLS/.test(code)
          ? `het certificaat van mta-sts.${domain} is niet geldig (${code})`
          : `het beleid is niet op te halen (${code || 'geen antwoord'})`;
    return { policy: null, problems: [reason] };
  }
}

async function mtaStsOf(
  domain: string,
  servers: DnsServer[],
  options: MailDnsOptions,
): Promise<MailEvidence['mtaSts']> {
  const records = startsWith(/^v=STSv1\s*(;|$)/)(
    (await txtRecords(`_mta-sts.${domain}`, servers, options).catch(() => ({ texts: [] }))).texts,
  );
  if (records.length === 0) return { records, id: null, policy: null, problems: [] };
  const id = records.length === 1 ? mtaStsIdOf(records[0]!) : null;
  const fetched = await mtaStsPolicyOf(domain, options);
  return { records, id, ...fetched };
}

async function recordsAt(name: string, prefix: RegExp, servers: DnsServer[], options: MailDnsOptions) {
  return startsWith(prefix)((await txtRecords(name, servers, options).catch(() => ({ texts: [] }))).texts);
}

/** The MX set, sorted by preference then name, at most MAX_MX; a null MX is `0 .` (RFC 7505). */
async function mxOf(domain: string, servers: DnsServer[], options: MailDnsOptions) {
  const response = await queryDnsUnchecked(domain, 'MX', ask(options, servers));
  if (response.rcode !== 'NOERROR' && response.rcode !== 'NXDOMAIN')
    throw new DnsError(`MX ${domain}: ${response.rcode}`);
  const all = response.answers
    .map((a) => a.data as { preference: number; exchange: string })
    .map((mx) => ({ host: trimDot(mx.exchange), preference: mx.preference }))
    .sort((a, b) => a.preference - b.preference || a.host.localeCompare(b.host));
  const isNull = (mx: { host: string }) => mx.host === '';
  const status: MxStatus = all.length === 0 ? 'no_mx' : all.some(isNull) && all.length === 1 ? 'null_mx' : 'has_mx';
  return {
    status,
    hosts: all.filter((mx) => !isNull(mx)).slice(0, MAX_MX),
    nullWithOthers: all.length > 1 && all.some(isNull),
  };
}

async function mxHost(
  mx: { host: string; preference: number },
  servers: DnsServer[],
  options: MailDnsOptions,
): Promise<MxHost> {
  const [v4, v6, dnssec, tlsa] = await Promise.all([
    addresses(mx.host, 'A', servers, options).catch(() => []),
    addresses(mx.host, 'AAAA', servers, options).catch(() => []),
    dnssecOf(mx.host, servers, options),
    tlsaOf(`_25._tcp.${mx.host}`, servers, options),
  ]);
  return {
    ...mx,
    addresses: [...v4.slice(0, 4), ...v6.filter(isRealIpv6).slice(0, 4)],
    dnssec,
    tlsa: { records: tlsa.shown, secure: tlsa.secure, bogus: tlsa.bogus },
  };
}

async function rpkiOf(
  mx: MxHost[],
  nameServers: MailEvidence['nameServers'],
  servers: DnsServer[],
  options: MailDnsOptions,
): Promise<MailEvidence['rpki']> {
  const routes = await routeOrigins(async () => mx.flatMap((m) => m.addresses), nameServers, servers, options);
  return routes.state === 'tested' ? { state: 'tested', mx: routes.hosts, nameServers: routes.nameServers } : routes;
}

const NOT_ASKED: Dnssec = { state: 'not_tested', reason: 'niet gevraagd', extendedError: null };

/** Gathers the DNS part of the mail test for one domain; a failing resolver is an error, never a pass. */
export async function probeMailDns(domain: string, options: MailDnsOptions): Promise<MailEvidence> {
  const name = trimDot(domain);
  const servers = serversOf(options.dnsServers);
  const empty = {
    domain: name,
    mxStatus: 'no_mx' as const,
    mx: [],
    nullMxWithOthers: false,
    dnssec: NOT_ASKED,
    nameServers: null,
    spf: { records: [], error: null, tree: null },
    dmarc: {
      records: [],
      at: name,
      orgDomain: false,
      error: null,
      treeWalk: { asked: [], foundAt: null },
      external: [],
    },
    dkim: 'error' as const,
    mtaSts: { records: [], id: null, policy: null, problems: [] },
    tlsRpt: { records: [] },
    bimi: { records: [] },
    rpki: { state: 'not_tested' as const, reason: 'niet getest' },
  };
  let mx: Awaited<ReturnType<typeof mxOf>>;
  try {
    // The domain must answer at all: a resolver that fails here fails every part, so the test is an error.
    const soa = await queryDnsUnchecked(name, 'SOA', ask(options, servers));
    if (soa.rcode === 'NXDOMAIN') return { ...empty, error: 'de domeinnaam bestaat niet (NXDOMAIN)' };
    if (soa.rcode !== 'NOERROR') return { ...empty, error: `de DNS-server antwoordt met ${soa.rcode}` };
    mx = await mxOf(name, servers, options);
  } catch (error) {
    return { ...empty, error: error instanceof DnsError ? error.message : 'DNS-fout' };
  }
  const [mxHosts, dnssec, nameServers, spf, dmarc, dkim, mtaSts, tlsRpt, bimi] = await Promise.all([
    Promise.all(mx.hosts.map((host) => mxHost(host, servers, options))),
    dnssecOf(name, servers, options),
    nameServersOf(name, servers, options).catch(() => null),
    spfOf(name, servers, options),
    dmarcOf(name, servers, options),
    dkimOf(name, servers, options),
    mtaStsOf(name, servers, options),
    recordsAt(`_smtp._tls.${name}`, /^v=TLSRPTv1\s*(;|$)/, servers, options),
    recordsAt(`default._bimi.${name}`, /^v=BIMI1\s*(;|$)/i, servers, options),
  ]);
  return {
    domain: name,
    error: null,
    mxStatus: mx.status,
    mx: mxHosts,
    nullMxWithOthers: mx.nullWithOthers,
    dnssec,
    nameServers,
    spf,
    dmarc,
    dkim,
    mtaSts,
    tlsRpt: { records: tlsRpt },
    bimi: { records: bimi },
    rpki: await rpkiOf(mxHosts, nameServers, servers, options),
  };
}
