import type { ScanEvidence } from '../types.ts';
import type { ExpiryKind } from '../vocabulary.ts';
import { securityTxtExpires, servedSecurityTxt } from './security-txt.ts';

/** A dated item of the scanned site: when it ends, as the scan saw it. */
export interface Expiry {
  kind: ExpiryKind;
  /** What it is: the certificate's subject (raw: the scan result sanitises it), or the security.txt's URL. */
  subject: string;
  /** ISO 8601. */
  not_after: string;
}

/**
 * The ends a site owner must renew before: the leaf certificate, every intermediate on the path
 * validation builds (up to the trust anchor, so a cross-sign clients pass by is not one), and the
 * Expires of the served security.txt.
 */
export function expiriesOf(evidence: Pick<ScanEvidence, 'tls' | 'securityTxt'>): Expiry[] {
  const chain = evidence.tls?.certificate?.chain ?? [];
  const expiries: Expiry[] = chain.map((cert, i) => ({
    kind: i === 0 ? 'certificate' : 'intermediate',
    subject: cert.subject,
    not_after: cert.notAfter,
  }));
  const served = evidence.securityTxt ? servedSecurityTxt(evidence.securityTxt) : null;
  const expires = served ? securityTxtExpires(served.file) : null;
  if (served && expires) expiries.push({ kind: 'security_txt', subject: served.url, not_after: expires.toISOString() });
  return expiries;
}
