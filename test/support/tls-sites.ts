import { certificate, startSite, type FixtureSite, type SiteDefinition } from './fixture-sites.ts';
import { HARDENED_HEADERS } from './sites.ts';

// TLS servers configured the way real ones go wrong, each with the findings of MEDIUM or above the
// scanner must report for it. Shared by the network tests and `npm run compare:testssl`.

export interface TlsCase {
  name: string;
  tls: () => NonNullable<SiteDefinition['tls']>;
  /** Finding types of MEDIUM or above the scanner must report; nothing else of MEDIUM or above. */
  expected: string[];
}

const STATIC_RSA_SUITES = 'AES128-GCM-SHA256:AES256-GCM-SHA384:AES128-SHA';
const LEGACY = 'DEFAULT@SECLEVEL=0';
const CBC_SUITES = 'ECDHE-RSA-AES128-SHA:ECDHE-RSA-AES256-SHA:ECDHE-RSA-AES128-SHA256';

export const TLS_CASES: TlsCase[] = [
  { name: 'modern TLS 1.2/1.3, ECDHE with AEAD', tls: () => ({ certificate: certificate() }), expected: [] },
  {
    name: 'leaf and intermediate sent',
    tls: () => {
      const intermediate = certificate({ ca: true });
      return { certificate: certificate({}, intermediate), chain: [intermediate] };
    },
    expected: [],
  },
  {
    name: 'incomplete chain (leaf of an intermediate sent alone)',
    tls: () => ({ certificate: certificate({}, certificate({ ca: true })) }),
    expected: ['tls_certificate_chain_incomplete', 'hsts_ignored_invalid_certificate'],
  },
  { name: 'RSA 1024-bit key', tls: () => ({ certificate: certificate({ keyBits: 1024 }) }), expected: ['tls_certificate_weak_key'] },
  // OpenSSL 3 refuses to serve a SHA-1 signed chain at its default security level; old servers serve it.
  { name: 'SHA-1 signature', tls: () => ({ certificate: certificate({ digest: 'sha1' }), ciphers: LEGACY }), expected: ['tls_certificate_weak_signature'] },
  {
    name: 'SHA-1 signed intermediate',
    tls: () => {
      const intermediate = certificate({ ca: true, digest: 'sha1' });
      return { certificate: certificate({}, intermediate), chain: [intermediate], ciphers: LEGACY };
    },
    expected: ['tls_certificate_weak_signature'],
  },
  {
    name: 'no subjectAltName (CN only)',
    tls: () => ({ certificate: certificate({ noSubjectAltName: true }) }),
    // For an IP address Node matches only IP subjectAltNames, so the CN does not count either.
    expected: ['tls_certificate_no_subject_alt_name', 'tls_certificate_hostname_mismatch', 'hsts_ignored_invalid_certificate'],
  },
  { name: 'self-signed', tls: () => ({ certificate: certificate({ selfSigned: true }) }), expected: ['tls_certificate_self_signed', 'hsts_ignored_invalid_certificate'] },
  {
    name: 'expired',
    tls: () => ({ certificate: certificate({ notBefore: new Date(Date.now() - 91 * 86_400_000), notAfter: new Date(Date.now() - 86_400_000) }) }),
    expected: ['tls_certificate_expired', 'hsts_ignored_invalid_certificate'],
  },
  {
    name: 'TLS 1.0 only',
    tls: () => ({ certificate: certificate(), minVersion: 'TLSv1', maxVersion: 'TLSv1' }),
    expected: ['tls_1_0_supported', 'tls_modern_protocols_missing', 'tls_no_aead'],
  },
  {
    name: 'static RSA key exchange only (no forward secrecy)',
    tls: () => ({ certificate: certificate(), maxVersion: 'TLSv1.2', ciphers: STATIC_RSA_SUITES }),
    expected: ['tls_no_forward_secrecy'],
  },
  { name: 'CBC suites only (no AEAD)', tls: () => ({ certificate: certificate(), maxVersion: 'TLSv1.2', ciphers: CBC_SUITES }), expected: ['tls_no_aead'] },
  {
    name: 'NULL suites offered',
    tls: () => ({ certificate: certificate(), maxVersion: 'TLSv1.2', ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-NULL-SHA:NULL-SHA256@SECLEVEL=0' }),
    expected: ['tls_cipher_null'],
  },
  {
    name: 'anonymous suites offered',
    tls: () => ({ certificate: certificate(), maxVersion: 'TLSv1.2', ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:AECDH-AES128-SHA:AECDH-AES256-SHA@SECLEVEL=0' }),
    expected: ['tls_cipher_anonymous'],
  },
];

export function startTlsSite(tlsCase: TlsCase): Promise<FixtureSite> {
  return startSite({ tls: tlsCase.tls(), routes: { '/': { headers: HARDENED_HEADERS, body: '<!doctype html><html><body>ok</body></html>' } } });
}
