import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { TargetRefusedError } from './errors.ts';

// Cloud metadata services stay unreachable even when private targets are allowed.
const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200']);
const PRIVATE_RANGES = new Set(['loopback', 'private', 'uniqueLocal', 'linkLocal', 'carrierGradeNat']);

export interface AddressPolicy {
  /** Lifts the block on loopback, private, link-local, CGNAT and unique-local ranges (tests, intranets). */
  allowPrivateTargets: boolean;
}

/** Why an address may not be contacted, or null when it may. */
export function refusalReason(address: string, policy: AddressPolicy): string | null {
  if (!ipaddr.isValid(address)) return 'ongeldig adres';
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  const normalized = parsed.toString();
  if (METADATA_ADDRESSES.has(normalized)) return 'metadata-adres';
  const range = parsed.range();
  if (range === 'unicast') return null;
  if (policy.allowPrivateTargets && PRIVATE_RANGES.has(range)) return null;
  return `${range}-adres`;
}

export function assertAddressAllowed(address: string, hostname: string, policy: AddressPolicy): void {
  const reason = refusalReason(address, policy);
  if (reason) {
    throw new TargetRefusedError(`Doel ${hostname} wordt geweigerd: ${address} is een ${reason} (intern of gereserveerd netwerk).`);
  }
}

/** Strips IPv6 brackets: URL hostnames keep them, socket APIs do not. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
}

/** Literal IP hosts skip DNS look-ups, so they are checked before connecting. */
export function assertLiteralHostAllowed(hostname: string, policy: AddressPolicy): void {
  const host = bareHost(hostname);
  if (net.isIP(host)) assertAddressAllowed(host, host, policy);
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A dns.lookup replacement for sockets: the check runs on the resolved addresses at connect time,
 * so redirects and DNS rebinding cannot smuggle a request to a refused address.
 */
export function guardedLookup(policy: AddressPolicy) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
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
