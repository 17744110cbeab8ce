import { getDiffieHellman } from 'node:crypto';
import { FFDHE_GROUPS } from '../../scanner/rules/tls-guideline.ts';
import { certificate, HARDENED_TLS, startSite, type FixtureSite, type SiteDefinition } from './fixture-sites.ts';
import { HARDENED_HEADERS } from './sites.ts';

// TLS servers configured the way real ones go wrong, each with the findings of MEDIUM or above the
// scanner must report for it. Shared by the network tests and `npm run compare:testssl`.

export interface TlsCase {
  name: string;
  tls: () => NonNullable<SiteDefinition['tls']>;
  /** Finding types of MEDIUM or above the scanner must report; nothing else of MEDIUM or above. */
  expected: string[];
  /** The NCSC-NL guideline's verdict on the server: the worst class of what it offers. */
  ncsc: string;
}

const derLength = (n: number) =>
  n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
const derInteger = (value: Buffer) => {
  const body = value[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), value]) : value;
  return Buffer.concat([Buffer.from([0x02]), derLength(body.length), body]);
};

/** PEM "DH PARAMETERS" (PKCS #3) for a prime and generator 2, as `openssl dhparam` writes them. */
export function dhParameters(prime: Buffer): string {
  const body = Buffer.concat([derInteger(prime), derInteger(Buffer.from([2]))]);
  const der = Buffer.concat([Buffer.from([0x30]), derLength(body.length), body]);
  return `-----BEGIN DH PARAMETERS-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END DH PARAMETERS-----\n`;
}

/** RFC 7919 appendix A, as published (checked to be safe primes in test/tls-guideline.test.ts). */
const FFDHE_2048 = Buffer.from(FFDHE_GROUPS[0]!.prime, 'hex');
const FFDHE_3072 = Buffer.from(FFDHE_GROUPS[1]!.prime, 'hex');

/** RFC 2409's 1024-bit MODP group (Oakley group 2): the DH group of many servers configured before Logjam. */
const DH_1024 = () => dhParameters(getDiffieHellman('modp2').getPrime());

const STATIC_RSA_SUITES = 'AES128-GCM-SHA256:AES256-GCM-SHA384:AES128-SHA';
const CBC_SUITES = 'ECDHE-RSA-AES128-SHA:ECDHE-RSA-AES256-SHA:ECDHE-RSA-AES128-SHA256';
/** Hardened, but at OpenSSL's security level 0: what it takes to serve a SHA-1 signed chain or a 1024-bit DH group. */
const HARDENED_AT_LEVEL_0 = { ...HARDENED_TLS, ciphers: `${HARDENED_TLS.ciphers}@SECLEVEL=0` };
const TLS12 = { maxVersion: 'TLSv1.2' as const };
/** SSL_OP_NO_EXTENDED_MASTER_SECRET (OpenSSL 3.0, bit 0): Node does not export the constant. */
const SSL_OP_NO_EXTENDED_MASTER_SECRET = 1;

export const TLS_CASES: TlsCase[] = [
  {
    name: 'modern TLS 1.2/1.3, ECDHE with AEAD',
    tls: () => ({ certificate: certificate() }),
    expected: [],
    ncsc: 'Uit te faseren',
  },
  {
    name: 'leaf and intermediate sent',
    tls: () => {
      const intermediate = certificate({ ca: true });
      return { certificate: certificate({}, intermediate), chain: [intermediate] };
    },
    expected: [],
    ncsc: 'Uit te faseren',
  },
  {
    name: 'incomplete chain (leaf of an intermediate sent alone)',
    tls: () => ({ certificate: certificate({}, certificate({ ca: true })) }),
    expected: ['tls_certificate_chain_incomplete', 'hsts_ignored_invalid_certificate'],
    ncsc: 'Uit te faseren',
  },
  {
    name: 'RSA 1024-bit key',
    // OpenSSL 3.5 (Node 24, 26) refuses to serve a 1024-bit key at its default security level; old servers serve it.
    tls: () => ({ certificate: certificate({ keyBits: 1024 }), options: HARDENED_AT_LEVEL_0 }),
    expected: ['tls_certificate_weak_key'],
    ncsc: 'Onvoldoende',
  },
  // OpenSSL 3 refuses to serve a SHA-1 signed chain at its default security level; old servers serve it.
  {
    name: 'SHA-1 signature',
    tls: () => ({ certificate: certificate({ digest: 'sha1' }), options: HARDENED_AT_LEVEL_0 }),
    expected: ['tls_certificate_weak_signature'],
    ncsc: 'Onvoldoende',
  },
  {
    name: 'SHA-1 signed intermediate',
    tls: () => {
      const intermediate = certificate({ ca: true, digest: 'sha1' });
      return { certificate: certificate({}, intermediate), chain: [intermediate], options: HARDENED_AT_LEVEL_0 };
    },
    expected: ['tls_certificate_weak_signature'],
    ncsc: 'Onvoldoende',
  },
  {
    name: 'no subjectAltName (CN only)',
    tls: () => ({ certificate: certificate({ noSubjectAltName: true }) }),
    // For an IP address Node matches only IP subjectAltNames, so the CN does not count either.
    expected: [
      'tls_certificate_no_subject_alt_name',
      'tls_certificate_hostname_mismatch',
      'hsts_ignored_invalid_certificate',
    ],
    ncsc: 'Uit te faseren',
  },
  {
    name: 'self-signed',
    tls: () => ({ certificate: certificate({ selfSigned: true }) }),
    expected: ['tls_certificate_self_signed', 'hsts_ignored_invalid_certificate'],
    ncsc: 'Uit te faseren',
  },
  {
    name: 'expired',
    tls: () => ({
      certificate: certificate({
        notBefore: new Date(Date.now() - 91 * 86_400_000),
        notAfter: new Date(Date.now() - 86_400_000),
      }),
    }),
    expected: ['tls_certificate_expired', 'hsts_ignored_invalid_certificate'],
    ncsc: 'Uit te faseren',
  },
  {
    name: 'TLS 1.0 only',
    tls: () => ({ certificate: certificate(), minVersion: 'TLSv1', maxVersion: 'TLSv1' }),
    expected: [
      'tls_1_0_supported',
      'tls_modern_protocols_missing',
      'tls_no_aead',
      'tls_cipher_cbc_sha1',
      'tls_cipher_static_rsa',
    ],
    ncsc: 'Onvoldoende',
  },
  {
    name: 'static RSA key exchange only (no forward secrecy)',
    tls: () => ({ certificate: certificate(), ...TLS12, ciphers: STATIC_RSA_SUITES }),
    expected: ['tls_no_forward_secrecy', 'tls_cipher_static_rsa'],
    ncsc: 'Onvoldoende',
  },
  {
    name: 'CBC suites only (no AEAD)',
    tls: () => ({ certificate: certificate(), ...TLS12, ciphers: CBC_SUITES }),
    // The server's own order puts the SHA-1 CBC suites before the SHA-256 one.
    expected: ['tls_no_aead', 'tls_cipher_cbc_sha1', 'tls_cipher_order_weak_first'],
    ncsc: 'Onvoldoende',
  },
  {
    name: 'NULL suites offered',
    tls: () => ({
      certificate: certificate(),
      ...TLS12,
      ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-NULL-SHA:NULL-SHA256@SECLEVEL=0',
    }),
    // Security level 0 also lets the server sign its key exchange with SHA-1 when asked.
    expected: ['tls_cipher_null', 'tls_key_exchange_hash_insufficient'],
    ncsc: 'Onvoldoende',
  },
  {
    name: 'anonymous suites offered',
    tls: () => ({
      certificate: certificate(),
      ...TLS12,
      ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:AECDH-AES128-SHA:AECDH-AES256-SHA@SECLEVEL=0',
    }),
    expected: ['tls_cipher_anonymous', 'tls_key_exchange_hash_insufficient'],
    ncsc: 'Onvoldoende',
  },
  {
    name: 'DHE-RSA-AES-GCM only, 1024-bit DH group',
    tls: () => ({
      certificate: certificate(),
      ...TLS12,
      ciphers: 'DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-SHA384@SECLEVEL=0',
      options: { dhparam: DH_1024(), sigalgs: HARDENED_TLS.sigalgs },
    }),
    expected: ['tls_dh_group_insufficient'],
    ncsc: 'Onvoldoende',
  },
  {
    name: 'ffdhe2048 beside ECDHE',
    tls: () => ({
      certificate: certificate(),
      ...TLS12,
      ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES128-GCM-SHA256',
      options: { dhparam: dhParameters(FFDHE_2048) },
    }),
    expected: ['tls_dh_group_insufficient'],
    ncsc: 'Onvoldoende',
  },
  {
    name: "OpenSSL's automatic DH group beside ECDHE",
    // dhparam 'auto' picks a 2048-bit group by the certificate's key size; it is not from RFC 7919.
    tls: () => ({
      certificate: certificate(),
      ...TLS12,
      ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES128-GCM-SHA256',
      options: { dhparam: 'auto' },
    }),
    expected: ['tls_dh_group_insufficient'],
    ncsc: 'Onvoldoende',
  },
  {
    name: 'ffdhe3072 only',
    tls: () => ({
      certificate: certificate(),
      ...TLS12,
      ciphers: 'DHE-RSA-AES256-GCM-SHA384',
      options: { dhparam: dhParameters(FFDHE_3072) },
    }),
    expected: [],
    ncsc: 'Uit te faseren',
  },
  {
    name: 'no server cipher order (ECDHE-GCM, ECDHE-CBC-SHA, static-RSA CBC)',
    tls: () => ({
      certificate: certificate(),
      ...TLS12,
      ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-SHA:AES128-SHA',
      options: { honorCipherOrder: false },
    }),
    expected: ['tls_cipher_order_missing', 'tls_cipher_cbc_sha1', 'tls_cipher_static_rsa'],
    ncsc: 'Onvoldoende',
  },
  {
    name: 'CBC offered after AEAD (server order)',
    tls: () => ({
      certificate: certificate(),
      ...TLS12,
      ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-SHA256:ECDHE-RSA-AES128-SHA',
    }),
    expected: ['tls_cipher_cbc_sha1'],
    ncsc: 'Onvoldoende',
  },
  {
    name: 'static RSA offered after ECDHE (server order)',
    tls: () => ({ certificate: certificate(), ...TLS12, ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:AES128-GCM-SHA256' }),
    expected: ['tls_cipher_static_rsa'],
    ncsc: 'Onvoldoende',
  },
  {
    name: 'static RSA preferred over ECDHE',
    tls: () => ({ certificate: certificate(), ...TLS12, ciphers: 'AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256' }),
    expected: ['tls_cipher_static_rsa', 'tls_cipher_order_weak_first'],
    ncsc: 'Onvoldoende',
  },
  {
    name: 'curve outside the guideline (secp256k1 beside X25519)',
    tls: () => ({ certificate: certificate(), options: { ...HARDENED_TLS, ecdhCurve: 'X25519:secp256k1' } }),
    expected: ['tls_curve_insufficient'],
    ncsc: 'Onvoldoende',
  },
  {
    name: 'secp224r1 beside P-256',
    tls: () => ({ certificate: certificate(), options: { ...HARDENED_TLS, ecdhCurve: 'secp224r1:prime256v1' } }),
    expected: [],
    ncsc: 'Uit te faseren',
  },
  {
    name: 'TLS 1.3 CCM_8 offered',
    tls: () => ({
      certificate: certificate(),
      // OpenSSL 3.5 offers CCM_8 only at security level 0, as a server configured for it sets.
      options: { ...HARDENED_TLS, ciphers: `TLS_AES_128_CCM_8_SHA256:${HARDENED_TLS.ciphers}:@SECLEVEL=0` },
    }),
    expected: ['tls_cipher_ccm8'],
    ncsc: 'Onvoldoende',
  },
  {
    name: 'no Extended Master Secret',
    tls: () => ({
      certificate: certificate(),
      options: {
        ...HARDENED_TLS,
        secureOptions: Number(HARDENED_TLS.secureOptions) | SSL_OP_NO_EXTENDED_MASTER_SECRET,
      },
    }),
    expected: ['tls_extended_master_secret_missing'],
    ncsc: 'Onvoldoende',
  },
  {
    name: 'client-initiated renegotiation accepted',
    tls: () => ({ certificate: certificate(), options: { ...HARDENED_TLS, secureOptions: 0 } }),
    expected: ['tls_client_renegotiation_allowed'],
    ncsc: 'Uit te faseren',
  },
];

export function startTlsSite(tlsCase: TlsCase): Promise<FixtureSite> {
  return startSite({
    tls: tlsCase.tls(),
    routes: { '/': { headers: HARDENED_HEADERS, body: '<!doctype html><html><body>ok</body></html>' } },
  });
}
