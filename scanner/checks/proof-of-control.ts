import { hostKey } from '../net/address-policy.ts';
import type { ControlMethod } from '../vocabulary.ts';

/**
 * A name whose control a tenant has shown: a DNS claim covers the name and every name below it
 * (RFC 8552's underscore label sits under the name it speaks for); a file, a meta tag or an
 * operator's word covers that host only.
 */
export interface ControlClaim {
  name: string;
  method: ControlMethod | 'operator';
}

/**
 * What a scan may do beyond a visitor's browser: intrusive tests run only on hosts the claims cover.
 * A scan without this object is the operator's own (the scan command line) and runs every test.
 */
export interface ProofOfControl {
  claims: readonly ControlClaim[];
  /** Why intrusive tests do not run when no claim covers the site, in Dutch ("eigendom niet aangetoond"). */
  refusal: string;
}

/** The reason an intrusive test gives on a site whose control was never shown. */
export const NOT_PROVEN = 'eigendom niet aangetoond';

/** Whether a claim speaks for a host (a host name or an IP literal, brackets allowed). */
export function claimCovers(claim: ControlClaim, host: string): boolean {
  const name = hostKey(claim.name);
  const asked = hostKey(host);
  return asked === name || (claim.method === 'dns' && asked.endsWith(`.${name}`));
}

/** Why an intrusive test may not run against `host`; null when a claim covers it or no proof is asked. */
export function intrusiveRefusal(control: ProofOfControl | undefined, host: string): string | null {
  if (!control || control.claims.some((claim) => claimCovers(claim, host))) return null;
  // The site is covered but the scan landed elsewhere (a redirect to another host): name that host.
  return control.claims.length > 0 ? `eigendom van ${hostKey(host)} niet aangetoond` : control.refusal;
}

/** Whether a DNS claim covers a domain: what the port-25 part of the mail test asks for. */
export function dnsClaimCovers(control: ProofOfControl | undefined, domain: string): boolean {
  return !control || control.claims.some((claim) => claim.method === 'dns' && claimCovers(claim, domain));
}
