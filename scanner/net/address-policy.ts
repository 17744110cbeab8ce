import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { resolveAddresses, type DnsOptions } from './dns.ts';
import { TargetRefusedError } from '../errors.ts';

/**
 * Cloud metadata and credentials endpoints: refused in every mode, also when private targets are
 * allowed. AWS IMDS (IPv4 and IPv6), ECS task credentials, EKS Pod Identity (IPv4 and IPv6), GCP and
 * Azure IMDS (169.254.169.254), Azure WireServer, Alibaba Cloud and Oracle Cloud's legacy address.
 */
export const METADATA_ADDRESSES: readonly string[] = [
  '169.254.169.254',
  '169.254.170.2',
  '169.254.170.23',
  '168.63.129.16',
  '100.100.100.200',
  '192.0.0.192',
  'fd00:ec2::254',
  'fd00:ec2::23',
];
const METADATA = new Set(METADATA_ADDRESSES.map((address) => ipaddr.parse(address).toNormalizedString()));

/** IPv4 ranges (ipaddr.js names) that SCANNER_ALLOW_PRIVATE_TARGETS opens; every other non-unicast range stays refused. */
const PRIVATE_IPV4_RANGES = new Set(['loopback', 'private', 'linkLocal', 'carrierGradeNat']);

/**
 * The IANA IPv6 Special-Purpose Address Registry, plus the deprecated IPv4-compatible ::/96
 * (RFC 4291) and multicast. `private` entries open with SCANNER_ALLOW_PRIVATE_TARGETS. Only global
 * unicast (2000::/3) outside every entry is reachable by default.
 */
export const IPV6_SPECIAL_PURPOSE: ReadonlyArray<{ prefix: string; name: string; private?: true }> = [
  { prefix: '::1/128', name: 'loopback', private: true },
  { prefix: '::/128', name: 'unspecified' },
  { prefix: '::ffff:0:0/96', name: 'IPv4-mapped' },
  { prefix: '::/96', name: 'IPv4-compatible (verouderd)' },
  { prefix: '64:ff9b::/96', name: 'IPv4/IPv6-vertaling' },
  { prefix: '64:ff9b:1::/48', name: 'lokale IPv4/IPv6-vertaling' },
  { prefix: '100::/64', name: 'discard-only' },
  { prefix: '100:0:0:1::/64', name: 'dummy-prefix' },
  { prefix: '2001::/23', name: 'IETF-protocoltoewijzing' },
  { prefix: '2001::/32', name: 'Teredo' },
  { prefix: '2001:1::1/128', name: 'PCP-anycast' },
  { prefix: '2001:1::2/128', name: 'TURN-anycast' },
  { prefix: '2001:1::3/128', name: 'DNS-SD SRP-anycast' },
  { prefix: '2001:2::/48', name: 'benchmarking' },
  { prefix: '2001:3::/32', name: 'AMT' },
  { prefix: '2001:4:112::/48', name: 'AS112-v6' },
  { prefix: '2001:10::/28', name: 'ORCHID (verouderd)' },
  { prefix: '2001:20::/28', name: 'ORCHIDv2' },
  { prefix: '2001:30::/28', name: 'Drone Remote ID' },
  { prefix: '2001:db8::/32', name: 'documentatie' },
  { prefix: '2002::/16', name: '6to4' },
  { prefix: '2620:4f:8000::/48', name: 'AS112 direct delegation' },
  { prefix: '3fff::/20', name: 'documentatie' },
  { prefix: '5f00::/16', name: 'SRv6 SID' },
  { prefix: 'fc00::/7', name: 'unique-local', private: true },
  { prefix: 'fe80::/10', name: 'link-local', private: true },
  { prefix: 'ff00::/8', name: 'multicast' },
];
const IPV6_TABLE = IPV6_SPECIAL_PURPOSE.map((entry) => ({ ...entry, cidr: ipaddr.IPv6.parseCIDR(entry.prefix) }));
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

export interface AddressPolicy extends DnsOptions {
  /** Lifts the block on loopback, private, link-local, CGNAT and unique-local ranges (tests, intranets). */
  allowPrivateTargets: boolean;
  /** Connect to this address of the host only (one address of several, judged apart); the policy still applies. */
  pinnedAddress?: string;
}

function ipv6Refusal(address: ipaddr.IPv6, policy: AddressPolicy): string | null {
  // Longest prefix first: ::1 is loopback before it is part of ::/96.
  const entry = IPV6_TABLE.filter((e) => address.match(e.cidr)).sort((a, b) => b.cidr[1] - a.cidr[1])[0];
  if (entry) return entry.private && policy.allowPrivateTargets ? null : `${entry.name}-adres`;
  return address.match(GLOBAL_UNICAST) ? null : 'gereserveerd adres';
}

/** Why an address may not be contacted, or null when it may. */
export function refusalReason(address: string, policy: AddressPolicy): string | null {
  if (!net.isIP(address)) return 'ongeldig adres';
  // Parsed the way sockets and URLs see it: ipaddr.js reads the IPv4-compatible ::a.b.c.d as mapped.
  // A zone id (fe80::1%eth0) does not change the range.
  let parsed = ipaddr.parse(
    net.isIPv6(address) ? bareHost(new URL(`http://[${address.split('%')[0]}]/`).hostname) : address,
  );
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (METADATA.has(parsed.toNormalizedString())) return 'metadata-adres';
  if (parsed.kind() === 'ipv6') return ipv6Refusal(parsed as ipaddr.IPv6, policy);
  const range = parsed.range();
  if (range === 'unicast') return null;
  if (policy.allowPrivateTargets && PRIVATE_IPV4_RANGES.has(range)) return null;
  return `${range}-adres`;
}

export function assertAddressAllowed(address: string, hostname: string, policy: AddressPolicy): void {
  const reason = refusalReason(address, policy);
  if (reason) {
    throw new TargetRefusedError(
      `Doel ${hostname} wordt geweigerd: ${address} is een ${reason} (intern of gereserveerd netwerk).`,
    );
  }
}

/** Strips IPv6 brackets: URL hostnames keep them, socket APIs do not. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
}

/** A host as claims of control name it: no brackets, no final dot, lower case. */
export const hostKey = (hostname: string): string => bareHost(hostname).replace(/\.$/, '').toLowerCase();

/** Literal IP hosts skip DNS look-ups, so they are checked before connecting. */
export function assertLiteralHostAllowed(hostname: string, policy: AddressPolicy): void {
  const host = bareHost(hostname);
  if (net.isIP(host)) assertAddressAllowed(host, host, policy);
}

/**
 * A dns.lookup replacement for sockets: the check runs on the resolved addresses at connect time,
 * so redirects and DNS rebinding cannot smuggle a request to a refused address.
 */
export function guardedLookup(policy: AddressPolicy): net.LookupFunction {
  const lookupAll = policy.dnsServers?.length
    ? (
        hostname: string,
        family: number,
        done: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
      ) => {
        resolveAddresses(hostname, policy, family).then(
          (addresses) => done(null, addresses),
          (error: NodeJS.ErrnoException) => done(error, []),
        );
      }
    : (
        hostname: string,
        family: number,
        done: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
      ) => dns.lookup(hostname, { family, all: true }, done);
  const pinned = policy.pinnedAddress;
  const lookup: typeof lookupAll = pinned
    ? (_hostname, _family, done) => done(null, [{ address: pinned, family: net.isIP(pinned) }])
    : lookupAll;
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
    lookup(hostname, family, (error, addresses) => {
      if (error) return callback(error, []);
      try {
        for (const { address } of addresses) assertAddressAllowed(address, hostname, policy);
      } catch (refusal) {
        return callback(refusal as NodeJS.ErrnoException, []);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}
