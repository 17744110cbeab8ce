// The record to publish for each fault of the mail test, filled in for the domain: one row per part.
// Values follow the RFCs' own examples in spirit; the owner adjusts addresses and the MX list.

export interface MailRecordFix {
  /** The subtest or extra this record fixes. */
  fixes: 'spf' | 'spf_policy' | 'dmarc' | 'dmarc_policy' | 'mta_sts' | 'tls_rpt';
  /** The DNS name, or the URL of a file to serve. */
  name: string;
  type: 'TXT' | 'HTTPS';
  value: string;
}

interface Domain {
  domain: string;
  /** The MX hosts; none for a domain that sends and receives no mail. */
  mx: readonly string[];
}

export const MAIL_RECORD_FIXES: Record<MailRecordFix['fixes'], (d: Domain) => MailRecordFix[]> = {
  spf: ({ domain, mx }) => [
    { fixes: 'spf', name: domain, type: 'TXT', value: mx.length ? 'v=spf1 mx -all' : 'v=spf1 -all' },
  ],
  spf_policy: ({ domain, mx }) => [
    { fixes: 'spf_policy', name: domain, type: 'TXT', value: mx.length ? 'v=spf1 mx -all' : 'v=spf1 -all' },
  ],
  dmarc: ({ domain }) => [
    { fixes: 'dmarc', name: `_dmarc.${domain}`, type: 'TXT', value: `v=DMARC1; p=reject; rua=mailto:dmarc@${domain}` },
  ],
  dmarc_policy: ({ domain }) => [
    {
      fixes: 'dmarc_policy',
      name: `_dmarc.${domain}`,
      type: 'TXT',
      value: `v=DMARC1; p=reject; rua=mailto:dmarc@${domain}`,
    },
  ],
  mta_sts: ({ domain, mx }) => [
    { fixes: 'mta_sts', name: `_mta-sts.${domain}`, type: 'TXT', value: 'v=STSv1; id=20260101T000000' },
    {
      fixes: 'mta_sts',
      name: `https://mta-sts.${domain}/.well-known/mta-sts.txt`,
      type: 'HTTPS',
      value: ['version: STSv1', 'mode: enforce', ...mx.map((host) => `mx: ${host}`), 'max_age: 604800', ''].join('\n'),
    },
  ],
  tls_rpt: ({ domain }) => [
    { fixes: 'tls_rpt', name: `_smtp._tls.${domain}`, type: 'TXT', value: `v=TLSRPTv1; rua=mailto:tlsrpt@${domain}` },
  ],
};
