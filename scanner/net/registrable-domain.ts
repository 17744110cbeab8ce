import { getDomain, getPublicSuffix } from 'tldts';

/** The registrable domain ("site") of a host by the Public Suffix List, or the host itself (IPs, localhost). */
export function siteOf(hostname: string): string {
  return getDomain(hostname, { allowPrivateDomains: true }) ?? hostname;
}

/**
 * The domain the mail test takes by default: the registrable domain of the ICANN section of the
 * Public Suffix List (what an owner types into internet.nl). A host under a platform's suffix (the
 * private section: *.vercel.app, *.lovable.app) has no domain of its own there: the platform owns
 * that DNS, and the reason says so.
 */
export function mailDomainOf(hostname: string): { domain: string; notApplicable: string | null } {
  const host = hostname.replace(/\.$/, '').toLowerCase();
  const icann = getDomain(host, { allowPrivateDomains: false });
  const withPrivate = getDomain(host, { allowPrivateDomains: true });
  if (!icann) return { domain: host, notApplicable: 'een IP-adres of een naam zonder domein heeft geen mail-DNS' };
  if (withPrivate !== icann)
    return {
      domain: withPrivate ?? host,
      notApplicable: `${host} valt onder ${getPublicSuffix(host, { allowPrivateDomains: true })}, een platformdomein: het platform beheert die DNS, niet de site`,
    };
  return { domain: icann, notApplicable: null };
}
