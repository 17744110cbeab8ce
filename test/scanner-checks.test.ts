import { describe, expect, it } from 'vitest';
import { analyze, CHECKS, contextFor } from '../scanner/analyze.ts';
import { CATALOG, FINDING_TYPES, type FindingType } from '../scanner/catalog/index.ts';
import { CORS_TEST_ORIGIN } from '../scanner/probes/retriever.ts';
import type { ExposureType } from '../scanner/probes/exposure-rules.ts';
import { FFDHE_GROUPS } from '../scanner/rules/tls-guideline.ts';
import {
  cipherEvidence,
  evidence,
  HARDENED_FEATURES,
  securityTxtText,
  type EvidenceOverrides,
} from './support/evidence.ts';

const typesOf = (o: EvidenceOverrides) => analyze(contextFor(evidence(o))).findings.map((f) => f.finding_type);
const DAY = 86_400_000;
const now = new Date();
/** The moment `days` ago (negative: ahead). */
const ago = (days: number) => new Date(now.getTime() - days * DAY).toISOString();
const leaf = (keyType: string, keyBits: number, signatureAlgorithm: string | null = 'sha256WithRSAEncryption') => ({
  subject: 'CN=example.nl',
  notAfter: new Date(now.getTime() + 365 * DAY).toISOString(),
  keyType,
  keyBits,
  signatureAlgorithm,
});

const ENV_FILE = 'APP_KEY=base64:abc\nDB_PASSWORD=hunter2\n';
const HTML_404 = '<!doctype html><html><body>APP_KEY=x\nDB_PASSWORD=y</body></html>';

// [finding type, evidence that must raise it, evidence of the same shape that must not]
const CASES: Array<[FindingType, EvidenceOverrides, EvidenceOverrides]> = [
  [
    'https_unavailable',
    { https: false, tls: { protocols: { TLSv1: false, 'TLSv1.1': false, 'TLSv1.2': false, 'TLSv1.3': false } } },
    {},
  ],
  [
    'tls_certificate_expired',
    { certificate: { validTo: new Date(now.getTime() - DAY).toISOString(), chainError: 'CERT_HAS_EXPIRED' } },
    {},
  ],
  ['tls_certificate_not_yet_valid', { certificate: { validFrom: new Date(now.getTime() + DAY).toISOString() } }, {}],
  ['tls_certificate_self_signed', { certificate: { chainError: 'DEPTH_ZERO_SELF_SIGNED_CERT', selfSigned: true } }, {}],
  ['tls_certificate_untrusted', { certificate: { chainError: 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY' } }, {}],
  [
    'tls_certificate_chain_incomplete',
    { certificate: { chainError: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' } },
    { certificate: { chainError: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', selfSigned: true } },
  ],
  ['tls_certificate_no_subject_alt_name', { certificate: { hasSubjectAltName: false } }, {}],
  [
    'tls_dane_invalid',
    { dane: { records: ['3 1 1 abab'], secure: true, matches: false, bogus: false } },
    { dane: { records: ['3 1 1 abab'], secure: false, matches: false, bogus: false } },
  ],
  [
    'tls_intermediate_certificate_expired',
    { certificate: { chain: [leaf('rsa', 2048), { ...leaf('rsa', 2048), notAfter: ago(2) }] } },
    { certificate: { chain: [leaf('rsa', 2048), { ...leaf('rsa', 2048), notAfter: ago(-40) }] } },
  ],
  [
    'tls_intermediate_certificate_expires_within_30_days',
    { certificate: { chain: [leaf('rsa', 2048), { ...leaf('rsa', 2048), notAfter: ago(-20) }] } },
    { certificate: { chain: [leaf('rsa', 2048), { ...leaf('rsa', 2048), notAfter: ago(2) }] } },
  ],
  [
    'tls_certificate_weak_key',
    { certificate: { chain: [leaf('rsa', 1024)] } },
    { certificate: { chain: [leaf('rsa', 2048), leaf('ec', 256)] } },
  ],
  [
    'tls_certificate_weak_key',
    { certificate: { chain: [leaf('rsa', 4096), leaf('ec', 224)] } },
    { certificate: { chain: [leaf('ec', 384)] } },
  ],
  [
    'tls_certificate_broken_key',
    { certificate: { chain: [leaf('rsa', 512)] } },
    { certificate: { chain: [leaf('rsa', 1024)] } },
  ],
  [
    'tls_certificate_broken_key',
    { certificate: { chain: [leaf('ec', 192)] } },
    { certificate: { chain: [leaf('ec', 224)] } },
  ],
  [
    'tls_certificate_weak_signature',
    { certificate: { chain: [leaf('rsa', 2048, 'sha1WithRSAEncryption')] } },
    { certificate: { chain: [leaf('rsa', 2048, 'sha256WithRSAEncryption')] } },
  ],
  [
    'tls_certificate_weak_signature',
    { certificate: { chain: [leaf('rsa', 2048), leaf('rsa', 2048, 'md5WithRSAEncryption')] } },
    { certificate: { chain: [leaf('ec', 256, 'ecdsa-with-SHA384')] } },
  ],
  ['tls_cipher_null', { tls: { ciphers: cipherEvidence([0xc02f, 0x003b]) } }, {}],
  ['tls_cipher_anonymous', { tls: { ciphers: cipherEvidence([0xc02f, 0xc018]) } }, {}],
  ['tls_cipher_export', { tls: { ciphers: cipherEvidence([0x0003]) } }, {}],
  ['tls_cipher_rc4', { tls: { ciphers: cipherEvidence([0xc02f, 0x0005]) } }, {}],
  [
    'tls_cipher_3des',
    { tls: { ciphers: cipherEvidence([0xc02f, 0xc012]) } },
    { tls: { ciphers: cipherEvidence([0xc02f, 0x0005]) } },
  ],
  [
    'tls_cipher_static_rsa',
    { tls: { ciphers: cipherEvidence([0xc02f, 0x009c]) } },
    { tls: { ciphers: cipherEvidence([0xc02f, 0xc013]) } },
  ],
  [
    'tls_cipher_cbc_sha1',
    { tls: { ciphers: cipherEvidence([0xc02f, 0xc013]) } },
    { tls: { ciphers: cipherEvidence([0xc02f, 0xc027]) } },
  ],
  [
    'tls_cipher_ccm8',
    { tls: { ciphers: cipherEvidence([0xc02f], { tls13InsufficientSuite: true }) } },
    { tls: { ciphers: cipherEvidence([0xc02f, 0xc0ad]) } },
  ],
  ['tls_cipher_ccm8', { tls: { ciphers: cipherEvidence([0xc02f, 0xc0ae]) } }, {}],
  [
    'tls_cipher_insufficient',
    { tls: { ciphers: cipherEvidence([0xc02f, 0x00a2]) } },
    { tls: { ciphers: cipherEvidence([0xc02f, 0x0032]) } },
  ],
  [
    'tls_cipher_phase_out',
    { tls: { ciphers: cipherEvidence([0xc02f, 0xc027]) } },
    { tls: { ciphers: cipherEvidence([0xc02b, 0xcca8]) } },
  ],
  ['tls_cipher_phase_out', { tls: { ciphers: cipherEvidence([0x009e]) } }, {}],
  [
    'tls_no_forward_secrecy',
    {
      tls: {
        protocols: { TLSv1: false, 'TLSv1.1': false, 'TLSv1.2': true, 'TLSv1.3': false },
        ciphers: cipherEvidence([0x009c, 0x002f]),
      },
    },
    { tls: { ciphers: cipherEvidence([0x009c, 0x002f]) } },
  ],
  [
    'tls_no_aead',
    {
      tls: {
        protocols: { TLSv1: false, 'TLSv1.1': false, 'TLSv1.2': true, 'TLSv1.3': false },
        ciphers: cipherEvidence([0xc013, 0xc027]),
      },
    },
    { tls: { ciphers: null } },
  ],
  [
    'tls_cipher_order_missing',
    { tls: { ciphers: cipherEvidence([0xc02f, 0xc030], { serverOrder: false }) } },
    { tls: { ciphers: cipherEvidence([0xc02f], { serverOrder: null }) } },
  ],
  [
    'tls_cipher_order_weak_first',
    { tls: { ciphers: cipherEvidence([0x009c, 0xc02f]) } },
    { tls: { ciphers: cipherEvidence([0xc02f, 0xc027, 0x009c]) } },
  ],
  [
    'tls_dh_group_insufficient',
    {
      tls: {
        ciphers: {
          ...cipherEvidence(),
          accepted: [
            {
              code: 0x009e,
              keyExchange: { kind: 'dhe', prime: 'c5'.repeat(128), generator: '02', signatureScheme: 0x0804 },
            },
          ],
        },
      },
    },
    {},
  ],
  [
    'tls_dh_group_insufficient',
    {
      tls: {
        ciphers: {
          ...cipherEvidence(),
          accepted: [
            {
              code: 0x009e,
              keyExchange: { kind: 'dhe', prime: FFDHE_GROUPS[0]!.prime, generator: '02', signatureScheme: 0x0804 },
            },
          ],
        },
      },
    },
    {},
  ],
  [
    'tls_dh_group_phase_out',
    {
      tls: {
        ciphers: {
          ...cipherEvidence(),
          accepted: [
            {
              code: 0x009e,
              keyExchange: { kind: 'dhe', prime: FFDHE_GROUPS[1]!.prime, generator: '02', signatureScheme: 0x0804 },
            },
          ],
        },
      },
    },
    {},
  ],
  [
    'tls_curve_insufficient',
    { tls: { ciphers: cipherEvidence([0xc02f], { weakGroups: [0x0016] }) } },
    { tls: { ciphers: cipherEvidence([0xc02f], { weakGroups: [] }) } },
  ],
  ['tls_curve_phase_out', { tls: { ciphers: cipherEvidence([0xc02f], { weakGroups: [0x0015] }) } }, {}],
  [
    'tls_key_exchange_hash_insufficient',
    { tls: { ciphers: cipherEvidence([0xc02f], { weakKeyExchangeSchemes: [0x0201] }) } },
    {},
  ],
  [
    'tls_key_exchange_hash_phase_out',
    { tls: { ciphers: cipherEvidence([0xc02f], { weakKeyExchangeSchemes: [0x0301] }) } },
    {},
  ],
  [
    'tls_secure_renegotiation_missing',
    { tls: { features: { ...HARDENED_FEATURES, secureRenegotiation: false } } },
    { tls: { features: { ...HARDENED_FEATURES, secureRenegotiation: null } } },
  ],
  [
    'tls_extended_master_secret_missing',
    { tls: { features: { ...HARDENED_FEATURES, extendedMasterSecret: false } } },
    { tls: { features: { ...HARDENED_FEATURES, extendedMasterSecret: null } } },
  ],
  ['tls_compression_enabled', { tls: { features: { ...HARDENED_FEATURES, compression: true } } }, {}],
  ['tls_client_renegotiation_allowed', { tls: { features: { ...HARDENED_FEATURES, clientRenegotiation: true } } }, {}],
  [
    'tls_certificate_key_phase_out',
    { certificate: { chain: [leaf('rsa', 2048)] } },
    { certificate: { chain: [leaf('rsa', 3072)] } },
  ],
  [
    'tls_certificate_signature_phase_out',
    { certificate: { chain: [leaf('rsa', 4096, 'sha224WithRSAEncryption')] } },
    {},
  ],
  ['caa_missing', { caa: { host: 'example.nl', domain: 'example.nl', foundAt: null, records: [] } }, { caa: null }],
  [
    'mixed_content_script',
    { html: '<html><script src="http://example.nl/app.js"></script></html>' },
    { html: '<html><script src="//example.nl/app.js"></script><script src="/a.js"></script></html>' },
  ],
  [
    'mixed_content_script',
    {
      html: '<html><script src="http://cdn.example.com/lib.js"></script></html>',
      headers: { 'content-security-policy': "default-src 'self'; upgrade-insecure-requests" },
    },
    { url: 'http://example.nl/', html: '<html><script src="http://example.nl/app.js"></script></html>' },
  ],
  [
    'mixed_content_password_form',
    { html: '<form action="http://example.nl/login"><input name="u"><input type="PASSWORD" name="p"></form>' },
    {
      html: '<form action="http://example.nl/zoek"><input name="q"></form><form action="/login"><input type="password"></form>',
    },
  ],
  [
    'password_field_insecure_page',
    { url: 'http://example.nl/login', html: '<form action="https://example.nl/login"><input type="password"></form>' },
    { url: 'https://example.nl/login', html: '<form action="/login"><input type="password"></form>' },
  ],
  [
    'mixed_content_active',
    { html: '<link rel="stylesheet" href="http://example.nl/a.css">' },
    { html: '<link rel="icon" href="http://example.nl/favicon.ico"><a href="http://example.nl/">link</a>' },
  ],
  ['mixed_content_active', { html: '<iframe src="http://video.example.com/embed/1"></iframe>' }, {}],
  ['mixed_content_active', { html: '<form action="http://example.nl/zoek"><input name="q"></form>' }, {}],
  [
    'mixed_content_passive',
    { html: '<img src="http://example.nl/a.png"><video poster="http://example.nl/p.jpg"></video>' },
    {
      html: '<img src="http://example.nl/a.png">',
      headers: { 'content-security-policy': "default-src 'self'; upgrade-insecure-requests" },
    },
  ],
  [
    'mixed_content_passive',
    { html: '<img srcset="/a.png 1x, http://example.nl/b.png 2x">' },
    { html: '<img srcset="/a.png 1x, //example.nl/b.png 2x">' },
  ],
  ['security_txt_missing', { securityTxt: { status: 404, text: 'Not Found' } }, {}],
  [
    'security_txt_missing',
    {
      securityTxt: {
        headers: { 'content-type': ['text/html'] },
        text: '<!doctype html><html><body>Contact: mailto:a@b.nl</body></html>',
      },
    },
    {},
  ],
  [
    'security_txt_missing',
    { securityTxt: { text: 'Niet gevonden' } },
    {
      securityTxt: {
        text: `contact: https://example.nl/melden\nExpires: ${new Date(now.getTime() + 30 * DAY).toISOString()}`,
      },
    },
  ],
  ['security_txt_legacy_location', { securityTxt: null, legacySecurityTxt: { text: securityTxtText(now) } }, {}],
  [
    'security_txt_wrong_content_type',
    { securityTxt: { headers: { 'content-type': ['application/octet-stream'] }, text: securityTxtText(now) } },
    { securityTxt: { headers: { 'content-type': ['text/plain'] }, text: securityTxtText(now) } },
  ],
  [
    'security_txt_no_contact',
    {
      securityTxt: {
        text: `Policy: https://example.nl/beleid\nExpires: ${new Date(now.getTime() + 30 * DAY).toISOString()}\n`,
      },
    },
    {},
  ],
  ['security_txt_no_expires', { securityTxt: { text: 'Contact: mailto:security@example.nl\n' } }, {}],
  [
    'security_txt_multiple_expires',
    { securityTxt: { text: `${securityTxtText(now)}Expires: ${new Date(now.getTime() + 60 * DAY).toISOString()}\n` } },
    {},
  ],
  [
    'security_txt_expires_invalid',
    { securityTxt: { text: 'Contact: mailto:security@example.nl\nExpires: 31-12-2027\n' } },
    {},
  ],
  [
    'security_txt_expired',
    {
      securityTxt: {
        text: `Contact: mailto:security@example.nl\nExpires: ${new Date(now.getTime() - DAY).toISOString()}\n`,
      },
    },
    {},
  ],
  [
    'security_txt_expires_soon',
    { securityTxt: { text: `Contact: mailto:security@example.nl\nExpires: ${ago(-12)}\n` } },
    { securityTxt: { text: `Contact: mailto:security@example.nl\nExpires: ${ago(-40)}\n` } },
  ],
  [
    'security_txt_expires_too_far',
    {
      securityTxt: {
        text: `Contact: mailto:security@example.nl\nExpires: ${new Date(now.getTime() + 400 * DAY).toISOString()}\n`,
      },
    },
    {
      securityTxt: {
        text: `Contact: mailto:security@example.nl\nExpires: ${new Date(now.getTime() + 360 * DAY).toISOString()}\n`,
      },
    },
  ],
  [
    'security_txt_no_expires',
    {
      securityTxt: {
        text: [
          '-----BEGIN PGP SIGNED MESSAGE-----',
          'Hash: SHA512',
          '',
          'Contact: mailto:security@example.nl',
          '-----BEGIN PGP SIGNATURE-----',
          '',
          'iQIzBAEBCgAdFiEE',
          '-----END PGP SIGNATURE-----',
        ].join('\n'),
      },
    },
    {
      securityTxt: {
        text: [
          '-----BEGIN PGP SIGNED MESSAGE-----',
          'Hash: SHA512',
          '',
          'Contact: mailto:security@example.nl',
          `Expires: ${new Date(now.getTime() + 90 * DAY).toISOString()}`,
          '-----BEGIN PGP SIGNATURE-----',
          '',
          'iQIzBAEBCgAdFiEE',
          '-----END PGP SIGNATURE-----',
        ].join('\n'),
      },
    },
  ],
  ['tls_certificate_hostname_mismatch', { certificate: { hostnameMatches: false } }, {}],
  [
    'tls_certificate_expires_within_14_days',
    { certificate: { validTo: new Date(now.getTime() + 5 * DAY).toISOString() } },
    { certificate: { validTo: new Date(now.getTime() + 20 * DAY).toISOString() } },
  ],
  [
    'tls_certificate_expires_within_30_days',
    { certificate: { validTo: new Date(now.getTime() + 20 * DAY).toISOString() } },
    { certificate: { validTo: new Date(now.getTime() + 40 * DAY).toISOString() } },
  ],
  [
    'tls_1_0_supported',
    { tls: { protocols: { TLSv1: true, 'TLSv1.1': false, 'TLSv1.2': true, 'TLSv1.3': true } } },
    {},
  ],
  [
    'tls_1_1_supported',
    { tls: { protocols: { TLSv1: false, 'TLSv1.1': true, 'TLSv1.2': true, 'TLSv1.3': true } } },
    {},
  ],
  [
    'tls_modern_protocols_missing',
    { tls: { protocols: { TLSv1: true, 'TLSv1.1': false, 'TLSv1.2': false, 'TLSv1.3': false } } },
    {},
  ],
  [
    'tls_1_3_not_supported',
    { tls: { protocols: { TLSv1: false, 'TLSv1.1': false, 'TLSv1.2': true, 'TLSv1.3': false } } },
    {},
  ],
  ['http_no_redirect_to_https', { httpRedirects: [{ url: 'http://example.nl/', status: 200 }] }, {}],
  [
    'http_redirect_not_to_https',
    {
      httpRedirects: [
        { url: 'http://example.nl/', status: 301 },
        { url: 'http://www.example.nl/', status: 200 },
      ],
    },
    {},
  ],
  [
    'http_redirect_initial_not_https',
    {
      httpRedirects: [
        { url: 'http://example.nl/', status: 301 },
        { url: 'http://www.example.nl/', status: 301 },
        { url: 'https://www.example.nl/', status: 200 },
      ],
    },
    {},
  ],
  [
    'http_redirect_off_host',
    {
      httpRedirects: [
        { url: 'http://example.nl/', status: 301 },
        { url: 'https://www.example.nl/', status: 200 },
      ],
    },
    {},
  ],
  ['hsts_missing', { headers: { 'strict-transport-security': null } }, {}],
  ['hsts_invalid', { headers: { 'strict-transport-security': 'includeSubDomains' } }, {}],
  [
    'hsts_max_age_too_short',
    { headers: { 'strict-transport-security': 'max-age=86400; includeSubDomains' } },
    { headers: { 'strict-transport-security': 'max-age=15552000; includeSubDomains' } },
  ],
  ['hsts_no_include_subdomains', { headers: { 'strict-transport-security': 'max-age=63072000' } }, {}],
  ['hsts_ignored_invalid_certificate', { verified: false }, {}],
  [
    'csp_missing',
    { headers: { 'content-security-policy': null } },
    {
      headers: { 'content-security-policy': null },
      html: `<html><head><meta http-equiv="Content-Security-Policy" content="default-src 'self'; object-src 'none'; base-uri 'none'"></head></html>`,
    },
  ],
  [
    'csp_report_only',
    { headers: { 'content-security-policy': null, 'content-security-policy-report-only': "default-src 'none'" } },
    {},
  ],
  ['csp_invalid', { headers: { 'content-security-policy': "default-src 'none'; default-src 'self'" } }, {}],
  [
    'csp_unsafe_inline',
    {
      headers: {
        'content-security-policy': "default-src 'self'; script-src 'self' 'unsafe-inline'; object-src 'none'",
      },
    },
    {
      headers: {
        'content-security-policy':
          "default-src 'self'; script-src 'self' 'unsafe-inline' 'nonce-abc'; object-src 'none'",
      },
    },
  ],
  [
    'csp_script_src_wildcard',
    { headers: { 'content-security-policy': "default-src *; object-src 'none'" } },
    { headers: { 'content-security-policy': "default-src 'self'; object-src 'none'" } },
  ],
  [
    'csp_object_src_unrestricted',
    { headers: { 'content-security-policy': "script-src 'self'" } },
    { headers: { 'content-security-policy': "script-src 'self'; object-src 'none'" } },
  ],
  [
    'csp_unsafe_eval',
    { headers: { 'content-security-policy': "default-src 'self'; script-src 'self' 'unsafe-eval'" } },
    {},
  ],
  [
    'csp_insecure_scheme',
    { headers: { 'content-security-policy': "default-src 'self'; script-src http://cdn.example.nl" } },
    {
      url: 'http://example.nl/',
      headers: { 'content-security-policy': "default-src 'self'; script-src http://cdn.example.nl" },
    },
  ],
  ['csp_insecure_scheme_passive', { headers: { 'content-security-policy': "default-src 'self'; img-src http:" } }, {}],
  [
    'csp_style_unsafe_inline',
    { headers: { 'content-security-policy': "default-src 'self'; style-src 'unsafe-inline'" } },
    {},
  ],
  [
    'csp_frame_ancestors_missing',
    { headers: { 'content-security-policy': "default-src 'self'; base-uri 'none'" } },
    {},
  ],
  [
    'csp_frame_ancestors_wildcard',
    { headers: { 'content-security-policy': "default-src 'self'; frame-ancestors *" } },
    {},
  ],
  [
    'csp_base_uri_missing',
    { headers: { 'content-security-policy': "default-src 'self'; frame-ancestors 'none'" } },
    {},
  ],
  [
    'csp_meta_only',
    {
      headers: { 'content-security-policy': null },
      html: `<html><head><meta http-equiv="Content-Security-Policy" content="default-src 'self'"></head></html>`,
    },
    {},
  ],
  [
    'x_frame_options_missing',
    { headers: { 'x-frame-options': null, 'content-security-policy': "default-src 'self'" } },
    { headers: { 'x-frame-options': null } },
  ],
  [
    'x_frame_options_invalid',
    { headers: { 'x-frame-options': 'whimsy', 'content-security-policy': "default-src 'self'" } },
    {},
  ],
  [
    'x_frame_options_allow_from',
    { headers: { 'x-frame-options': 'ALLOW-FROM https://a.nl', 'content-security-policy': "default-src 'self'" } },
    {},
  ],
  ['x_content_type_options_missing', { headers: { 'x-content-type-options': null } }, {}],
  [
    'x_content_type_options_invalid',
    { headers: { 'x-content-type-options': 'sniff' } },
    { headers: { 'x-content-type-options': 'NoSniff ' } },
  ],
  [
    'referrer_policy_missing',
    { headers: { 'referrer-policy': null } },
    {
      headers: { 'referrer-policy': null },
      html: '<html><head><meta name="referrer" content="no-referrer"></head></html>',
    },
  ],
  [
    'referrer_policy_unsafe',
    { headers: { 'referrer-policy': 'unsafe-url' } },
    { headers: { 'referrer-policy': 'unsafe-url, strict-origin' } },
  ],
  ['referrer_policy_invalid', { headers: { 'referrer-policy': 'whimsy' } }, {}],
  ['permissions_policy_missing', { headers: { 'permissions-policy': null } }, {}],
  ['coop_missing', { headers: { 'cross-origin-opener-policy': null } }, {}],
  [
    'coop_invalid',
    { headers: { 'cross-origin-opener-policy': 'Same-Origin' } },
    { headers: { 'cross-origin-opener-policy': 'same-origin; report-to="x"' } },
  ],
  [
    'coep_invalid',
    { headers: { 'cross-origin-embedder-policy': '"require-corp"' } },
    { headers: { 'cross-origin-embedder-policy': 'require-corp' } },
  ],
  [
    'corp_invalid',
    { headers: { 'cross-origin-resource-policy': 'whimsy' } },
    { headers: { 'cross-origin-resource-policy': 'same-site' } },
  ],
  [
    'cookie_missing_secure',
    { headers: { 'set-cookie': 'theme=dark; Path=/; SameSite=Lax' } },
    { headers: { 'set-cookie': 'theme=dark; Path=/; Secure; SameSite=Lax' } },
  ],
  ['session_cookie_missing_secure', { headers: { 'set-cookie': 'sessionid=1; HttpOnly; SameSite=Lax' } }, {}],
  ['session_cookie_missing_httponly', { headers: { 'set-cookie': 'sessionid=1; Secure; SameSite=Lax' } }, {}],
  ['cookie_samesite_invalid', { headers: { 'set-cookie': 'a=1; Secure; SameSite=True' } }, {}],
  [
    'cookie_samesite_none_without_secure',
    { headers: { 'set-cookie': 'a=1; SameSite=None' } },
    { headers: { 'set-cookie': 'a=1; Secure; SameSite=None' } },
  ],
  [
    'csrf_cookie_missing_samesite',
    { headers: { 'set-cookie': 'csrftoken=1; Secure' } },
    { headers: { 'set-cookie': 'csrftoken=1; Secure; SameSite=Strict' } },
  ],
  ['cookie_missing_samesite', { headers: { 'set-cookie': 'a=1; Secure' } }, {}],
  [
    'cookie_prefix_invalid',
    { headers: { 'set-cookie': '__Host-a=1; Secure; Domain=example.nl; Path=/; SameSite=Lax' } },
    {},
  ],
  [
    'cors_reflected_origin_with_credentials',
    { headers: { 'access-control-allow-origin': CORS_TEST_ORIGIN, 'access-control-allow-credentials': 'true' } },
    {
      headers: { 'access-control-allow-origin': 'https://app.example.nl', 'access-control-allow-credentials': 'true' },
    },
  ],
  [
    'cors_reflected_origin',
    { headers: { 'access-control-allow-origin': CORS_TEST_ORIGIN } },
    { headers: { 'access-control-allow-origin': '*' } },
  ],
  [
    'cors_wildcard_with_credentials',
    { headers: { 'access-control-allow-origin': '*', 'access-control-allow-credentials': 'true' } },
    {},
  ],
  [
    'cors_null_origin_with_credentials',
    { headers: { 'access-control-allow-origin': 'null', 'access-control-allow-credentials': 'true' } },
    {},
  ],
  [
    'sri_missing',
    { html: '<script src="https://cdn.other.com/a.js"></script>' },
    {
      html: '<script src="https://static.example.nl/a.js"></script><script src="https://cdn.other.com/a.js" integrity="sha384-x"></script>',
    },
  ],
  ['external_script_insecure', { html: '<script src="http://cdn.other.com/a.js" integrity="sha384-x"></script>' }, {}],
  ['script_protocol_relative', { html: '<script src="//cdn.other.com/a.js"></script>' }, {}],
  ['server_version_disclosure', { headers: { server: 'nginx/1.18.0' } }, { headers: { server: 'nginx' } }],
  ['x_powered_by_disclosure', { headers: { 'x-powered-by': 'Express' } }, {}],
  [
    'exposed_git_config',
    {
      probes: [
        {
          type: 'exposed_git_config',
          path: '/.git/config',
          response: { text: '[core]\n\trepositoryformatversion = 0\n' },
        },
      ],
    },
    {
      probes: [
        {
          type: 'exposed_git_config',
          path: '/.git/config',
          response: { status: 403, text: '[core]\n\trepositoryformatversion = 0\n' },
        },
      ],
    },
  ],
  [
    'exposed_env_file',
    { probes: [{ type: 'exposed_env_file', path: '/.env', response: { text: ENV_FILE } }] },
    { probes: [{ type: 'exposed_env_file', path: '/.env', response: { text: HTML_404 } }] },
  ],
  [
    'exposed_private_key',
    {
      probes: [
        { type: 'exposed_private_key', path: '/id_rsa', response: { text: '-----BEGIN RSA PRIVATE KEY-----\nMIIE' } },
      ],
    },
    { probes: [{ type: 'exposed_private_key', path: '/id_rsa', response: { text: '-----BEGIN PUBLIC KEY-----' } }] },
  ],
  [
    'exposed_backup_archive',
    {
      probes: [
        { type: 'exposed_backup_archive', path: '/backup.zip', response: { body: Buffer.from([0x50, 0x4b, 3, 4, 0]) } },
      ],
    },
    { probes: [{ type: 'exposed_backup_archive', path: '/backup.zip', response: { text: 'PK but not a zip' } }] },
  ],
  [
    'exposed_ds_store',
    {
      probes: [
        {
          type: 'exposed_ds_store',
          path: '/.DS_Store',
          response: { body: Buffer.from([0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31, 0]) },
        },
      ],
    },
    {},
  ],
  [
    'exposed_config_backup',
    {
      probes: [
        {
          type: 'exposed_config_backup',
          path: '/wp-config.php.bak',
          response: { text: "<?php define('DB_PASSWORD', 'x');" },
        },
      ],
    },
    { probes: [{ type: 'exposed_config_backup', path: '/wp-config.php.bak', response: { text: '' } }] },
  ],
  [
    'exposed_heapdump',
    { probes: [{ type: 'exposed_heapdump', path: '/actuator/heapdump', response: { text: 'JAVA PROFILE 1.0.2\0' } }] },
    {},
  ],
  [
    'wordpress_user_enumeration',
    {
      probes: [
        {
          type: 'wordpress_user_enumeration',
          path: '/wp-json/wp/v2/users',
          response: { text: '[{"id":1,"slug":"admin"}]' },
        },
      ],
    },
    {
      probes: [
        {
          type: 'wordpress_user_enumeration',
          path: '/wp-json/wp/v2/users',
          response: { text: '{"code":"rest_no_route"}' },
        },
      ],
    },
  ],
  [
    'graphql_introspection_enabled',
    {
      probes: [
        {
          type: 'graphql_introspection_enabled',
          path: '/graphql',
          response: { text: '{"data":{"__schema":{"queryType":{"name":"Query"}}}}' },
        },
      ],
    },
    {
      probes: [
        {
          type: 'graphql_introspection_enabled',
          path: '/graphql',
          response: { text: '{"errors":[{"message":"introspection disabled"}]}' },
        },
      ],
    },
  ],
  [
    'directory_listing',
    {
      probes: [
        {
          type: 'directory_listing',
          path: '/uploads/',
          response: { text: '<html><head><title>Index of /uploads</title></head></html>' },
        },
      ],
    },
    {},
  ],
];

describe('pure checks: every finding type has a true positive and a true negative', () => {
  it('a hardened site has no findings at all', () => {
    expect(typesOf({})).toEqual([]);
  });

  it.each(CASES)('%s', (type, positive, negative) => {
    expect(CATALOG[type], `catalog entry for ${type}`).toBeDefined();
    expect(typesOf(positive)).toContain(type);
    expect(typesOf(negative)).not.toContain(type);
  });

  it.each([
    ['exposed_env_file', '/.env', 'SECRET_KEY=abc123\n', true],
    ['exposed_env_file', '/.env', '# settings\nexport DB_URL=postgres://u:p@h/db\n', true],
    [
      'exposed_env_file',
      '/.env',
      'Not found. Try HOME=/ later, or read the docs at /help for more information.\nThanks',
      false,
    ],
    ['exposed_git_config', '/.git/config', '[remote "origin"]\n\turl = git@example.com:a/b.git\n', true],
    ['exposed_git_config', '/.git/config', 'see [core] docs', false],
  ] as Array<[ExposureType, string, string, boolean]>)('confirms %s by content: %j', (type, path, text, expected) => {
    const found = typesOf({ probes: [{ type, path, response: { text } }] }).includes(type);
    expect(found).toBe(expected);
  });

  it('treats an answer that looks like the random-path baseline as not found (soft 404)', () => {
    const probe = {
      type: 'exposed_env_file' as const,
      path: '/.env',
      response: { text: `page for /.env\n${ENV_FILE}` },
    };
    expect(typesOf({ probes: [probe] })).toContain('exposed_env_file');
    expect(typesOf({ probes: [probe], baseline: { text: `page for /random-404\n${ENV_FILE}` } })).not.toContain(
      'exposed_env_file',
    );
  });

  it('lets CSP frame-ancestors stand in for X-Frame-Options', () => {
    expect(typesOf({ headers: { 'x-frame-options': null } })).not.toContain('x_frame_options_missing');
  });

  it('never stores secrets from an exposed file in the finding', () => {
    const [finding] = analyze(
      contextFor(evidence({ probes: [{ type: 'exposed_env_file', path: '/.env', response: { text: ENV_FILE } }] })),
    ).findings;
    expect(finding!.actual_value).not.toContain('hunter2');
  });
});

describe('a failing check', () => {
  it('costs that check only: the result names it and the other categories are still scored', () => {
    const broken = {
      ...CHECKS,
      cookies: () => {
        throw new TypeError('kapotte parser');
      },
    };
    const { findings, failedChecks } = analyze(
      contextFor(
        evidence({
          headers: { 'set-cookie': 'sessionid=1', 'x-frame-options': null, 'content-security-policy': null },
        }),
      ),
      broken,
    );
    expect(failedChecks).toEqual(['cookies']);
    expect(findings.map((f) => f.finding_type)).toEqual(expect.arrayContaining(['csp_missing']));
    expect(findings.some((f) => f.finding_type.startsWith('session_cookie'))).toBe(false);
  });
});

describe('finding catalog', () => {
  it('uses stable snake_case types, Dutch texts and reference URLs of known authorities', () => {
    for (const [type, entry] of Object.entries(CATALOG)) {
      expect(type).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      expect(entry.reference_url).toMatch(
        /^https:\/\/(developer\.mozilla\.org|cheatsheetseries\.owasp\.org|owasp\.org|www\.rfc-editor\.org|wiki\.mozilla\.org|infosec\.mozilla\.org|cwe\.mitre\.org|developer\.wordpress\.org|docs\.spring\.io|www\.php\.net|httpd\.apache\.org|www\.ncsc\.nl|supabase\.com|firebase\.google\.com|github\.com\/vercel|nextjs\.org|wordpress\.org)\//,
      );
      for (const text of [entry.title, entry.description, entry.impact, entry.remediation])
        expect(text.length).toBeGreaterThan(10);
    }
  });

  it('covers every finding type a check can report', () => {
    const reported = new Set(CASES.map(([type]) => type));
    const untested = FINDING_TYPES.filter((type) => !reported.has(type));
    // Exposure rules share one confirmation path; the network tests cover the rest of them.
    expect(untested.every((type) => CATALOG[type].category === 'EXPOSED_ENDPOINT')).toBe(true);
  });
});
