import { getDomain } from 'tldts';

/** The registrable domain ("site") of a host by the Public Suffix List, or the host itself (IPs, localhost). */
export function siteOf(hostname: string): string {
  return getDomain(hostname, { allowPrivateDomains: true }) ?? hostname;
}
