import { getDiffieHellman } from 'node:crypto';
import { CIPHER_SUITE_NAMES } from './cipher-suite-registry.ts';
import type { TlsVersion } from '../types.ts';
import { NCSC_CLASSES, type NcscClass } from '../vocabulary.ts';

// The NCSC-NL "ICT-beveiligingsrichtlijnen voor Transport Layer Security", 2025 edition (v2.2; the
// 2021 edition was v2.1), as internet.nl applies it (internetstandards/Internet.nl,
// checks/tasks/tls/tls_constants.py and evaluation.py). Every element a server offers falls in one
// of four classes; anything a table below does not list is Onvoldoende, as the guideline says.
// Where the editions differ, the 2025 column is followed and the 2021 class is noted beside it.

/** Lower is better: a preference order must never rank a higher number first. */
export const classRank = (c: NcscClass): number => NCSC_CLASSES.indexOf(c);
export const worstClass = (classes: NcscClass[]): NcscClass => NCSC_CLASSES[Math.max(0, ...classes.map(classRank))]!;

/** Section 3.3.1. 2021: TLS 1.0 and 1.1 were Uit te faseren; 2025: Onvoldoende. */
export const TLS_VERSION_CLASS: Record<TlsVersion, NcscClass> = {
  'TLSv1.3': 'Goed',
  'TLSv1.2': 'Voldoende',
  'TLSv1.1': 'Onvoldoende',
  TLSv1: 'Onvoldoende',
};

/**
 * Appendix B (from 3.3.3 and 3.3.4), by IANA name. 2025 moved TLS_AES_128_GCM_SHA256 from Goed to
 * Voldoende, and every ECDHE AEAD suite of TLS 1.2 to Voldoende; CBC with SHA-1 went from Uit te
 * faseren (2021) to Onvoldoende.
 */
const SUITE_CLASS_LISTS: Record<Exclude<NcscClass, 'Onvoldoende'>, readonly string[]> = {
  Goed: ['TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256'],
  Voldoende: [
    'TLS_AES_128_GCM_SHA256',
    'TLS_AES_128_CCM_SHA256',
    'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256',
    'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384',
    'TLS_ECDHE_ECDSA_WITH_AES_256_CCM',
    'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
    'TLS_ECDHE_ECDSA_WITH_AES_128_CCM',
    'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
    'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
    'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
  ],
  'Uit te faseren': [
    ...['ECDSA', 'RSA'].flatMap((auth) => [
      `TLS_ECDHE_${auth}_WITH_CAMELLIA_256_GCM_SHA384`,
      `TLS_ECDHE_${auth}_WITH_CAMELLIA_256_CBC_SHA384`,
      `TLS_ECDHE_${auth}_WITH_CAMELLIA_128_GCM_SHA256`,
      `TLS_ECDHE_${auth}_WITH_CAMELLIA_128_CBC_SHA256`,
      `TLS_ECDHE_${auth}_WITH_ARIA_256_GCM_SHA384`,
      `TLS_ECDHE_${auth}_WITH_ARIA_256_CBC_SHA384`,
      `TLS_ECDHE_${auth}_WITH_ARIA_128_GCM_SHA256`,
      `TLS_ECDHE_${auth}_WITH_ARIA_128_CBC_SHA256`,
      `TLS_ECDHE_${auth}_WITH_AES_256_CBC_SHA384`,
      `TLS_ECDHE_${auth}_WITH_AES_128_CBC_SHA256`,
    ]),
    'TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
    'TLS_DHE_RSA_WITH_CAMELLIA_256_GCM_SHA384',
    'TLS_DHE_RSA_WITH_CAMELLIA_256_CBC_SHA256',
    'TLS_DHE_RSA_WITH_CAMELLIA_128_GCM_SHA256',
    'TLS_DHE_RSA_WITH_CAMELLIA_128_CBC_SHA256',
    'TLS_DHE_RSA_WITH_ARIA_256_GCM_SHA384',
    'TLS_DHE_RSA_WITH_ARIA_256_CBC_SHA384',
    'TLS_DHE_RSA_WITH_ARIA_128_GCM_SHA256',
    'TLS_DHE_RSA_WITH_ARIA_128_CBC_SHA256',
    'TLS_DHE_RSA_WITH_AES_256_GCM_SHA384',
    'TLS_DHE_RSA_WITH_AES_256_CCM',
    'TLS_DHE_RSA_WITH_AES_256_CBC_SHA256',
    'TLS_DHE_RSA_WITH_AES_128_GCM_SHA256',
    'TLS_DHE_RSA_WITH_AES_128_CCM',
    'TLS_DHE_RSA_WITH_AES_128_CBC_SHA256',
  ],
};

/** Why an Onvoldoende suite is Onvoldoende: each reason is its own finding type. */
export const INSUFFICIENT_SUITE_REASONS = [
  'null',
  'anonymous',
  'export',
  'rc4',
  'triple_des',
  'static_rsa',
  'cbc_sha1',
  'ccm8',
  'other',
] as const;
export type InsufficientSuiteReason = (typeof INSUFFICIENT_SUITE_REASONS)[number];

/** The first matching pattern names the reason, so a suite counts once (TLS_RSA_WITH_RC4_128_SHA is RC4). */
const REASON_PATTERNS: Array<[InsufficientSuiteReason, RegExp]> = [
  ['null', /_WITH_NULL_|^TLS_NULL_/],
  ['anonymous', /_anon_/],
  ['export', /EXPORT/],
  ['rc4', /_RC4_/],
  ['triple_des', /3DES/],
  ['static_rsa', /^(TLS|SSL)_RSA_(WITH|FIPS|PSK)/],
  ['cbc_sha1', /_CBC_SHA$/],
  ['ccm8', /_CCM_8/],
];

export interface SuiteFacts {
  code: number;
  name: string;
  ncsc: NcscClass;
  /** Set for Onvoldoende suites. */
  reason: InsufficientSuiteReason | null;
  /** Key exchange whose ServerKeyExchange the probe reads. */
  keyExchange: 'ecdhe' | 'dhe' | null;
  forwardSecret: boolean;
  aead: boolean;
  tls13: boolean;
}

const CLASS_OF_NAME = new Map<string, NcscClass>(
  Object.entries(SUITE_CLASS_LISTS).flatMap(([c, names]) => names.map((name) => [name, c as NcscClass])),
);

function factsOf(code: number, name: string): SuiteFacts {
  const ncsc = CLASS_OF_NAME.get(name) ?? 'Onvoldoende';
  const tls13 = code >> 8 === 0x13;
  const keyExchange = /^TLS_(ECDHE|ECDH_anon)_/.test(name) ? 'ecdhe' : /^TLS_(DHE|DH_anon)_/.test(name) ? 'dhe' : null;
  return {
    code,
    name,
    ncsc,
    reason: ncsc === 'Onvoldoende' ? (REASON_PATTERNS.find(([, pattern]) => pattern.test(name))?.[0] ?? 'other') : null,
    keyExchange,
    // Authenticated ephemeral key exchange; anonymous DH is ephemeral but authenticates nobody.
    forwardSecret: tls13 || /^TLS_(ECDHE|DHE)_(RSA|ECDSA|DSS)_/.test(name),
    aead: tls13 || /_(GCM|CCM|CCM_8|CHACHA20_POLY1305)(_SHA\d+)?(_OLD)?$/.test(name),
    tls13,
  };
}

export const SUITES: ReadonlyMap<number, SuiteFacts> = new Map(
  [...CIPHER_SUITE_NAMES].map(([code, name]) => [code, factsOf(code, name)]),
);

/** What an unknown code point a server picked is: Onvoldoende, named by its number. */
export function suiteFacts(code: number): SuiteFacts {
  return SUITES.get(code) ?? factsOf(code, `0x${code.toString(16).padStart(4, '0')}`);
}

/** Every TLS 1.2-and-earlier suite, Onvoldoende first: a client that offers these lets a server without its own order pick the worst. */
export const TLS12_SUITES_WORST_FIRST: readonly number[] = [...SUITES.values()]
  .filter((s) => !s.tls13)
  .sort((a, b) => classRank(b.ncsc) - classRank(a.ncsc) || a.code - b.code)
  .map((s) => s.code);

/** TLS 1.3 suites, OpenSSL names for Node's `ciphersuites`; only CCM_8 is Onvoldoende. */
export const TLS13_INSUFFICIENT_SUITE = { code: 0x1305, name: 'TLS_AES_128_CCM_8_SHA256' } as const;

/**
 * Key-exchange groups by TLS NamedGroup code point (3.3.2.1 table 3, 3.3.3.1 table 7). ECDHE curves
 * not listed are Onvoldoende. 2021 and 2025 agree on the curves.
 */
export const GROUPS: ReadonlyMap<number, { name: string; ncsc: NcscClass }> = new Map<
  number,
  { name: string; ncsc: NcscClass }
>([
  [0x0017, { name: 'secp256r1', ncsc: 'Goed' }],
  [0x0018, { name: 'secp384r1', ncsc: 'Goed' }],
  [0x0019, { name: 'secp521r1', ncsc: 'Goed' }],
  [0x001d, { name: 'x25519', ncsc: 'Goed' }],
  [0x001e, { name: 'x448', ncsc: 'Goed' }],
  [0x001a, { name: 'brainpoolP256r1', ncsc: 'Goed' }],
  [0x001b, { name: 'brainpoolP384r1', ncsc: 'Goed' }],
  [0x001c, { name: 'brainpoolP512r1', ncsc: 'Goed' }],
  [0x0015, { name: 'secp224r1', ncsc: 'Uit te faseren' }],
  ...(
    [
      [0x0001, 'sect163k1'],
      [0x0002, 'sect163r1'],
      [0x0003, 'sect163r2'],
      [0x0004, 'sect193r1'],
      [0x0005, 'sect193r2'],
      [0x0006, 'sect233k1'],
      [0x0007, 'sect233r1'],
      [0x0008, 'sect239k1'],
      [0x0009, 'sect283k1'],
      [0x000a, 'sect283r1'],
      [0x000b, 'sect409k1'],
      [0x000c, 'sect409r1'],
      [0x000d, 'sect571k1'],
      [0x000e, 'sect571r1'],
      [0x000f, 'secp160k1'],
      [0x0010, 'secp160r1'],
      [0x0011, 'secp160r2'],
      [0x0012, 'secp192k1'],
      [0x0013, 'secp192r1'],
      [0x0014, 'secp224k1'],
      [0x0016, 'secp256k1'],
    ] as const
  ).map(([code, name]) => [code, { name, ncsc: 'Onvoldoende' as NcscClass }] as const),
]);

export const groupName = (code: number): string =>
  GROUPS.get(code)?.name ?? `groep 0x${code.toString(16).padStart(4, '0')}`;
export const groupClass = (code: number): NcscClass => GROUPS.get(code)?.ncsc ?? 'Onvoldoende';
export const groupsOfClass = (c: NcscClass): number[] =>
  [...GROUPS].filter(([, g]) => g.ncsc === c).map(([code]) => code);

/** RFC 7919 appendix A: the named finite-field groups, generator 2. */
const RFC7919_PRIME_HEAD =
  'FFFFFFFFFFFFFFFFADF85458A2BB4A9AAFDC5620273D3CF1D8B9C583CE2D3695A9E13641146433FBCC939DCE249B3EF97D2FE363630C75D8F681B202AEC4617AD3DF1ED5D5FD65612433F51F5F066ED0856365553DED1AF3B557135E7F57C935984F0C70E0E68B77E2A689DAF3EFE8721DF158A136ADE73530ACCA4F483A797ABC0AB182B324FB61D108A94BB2C8E3FBB96ADAB760D7F4681D4F42A3DE394DF4AE56EDE76372BB190B07A7C8EE0A6D709E02FCE1CDF7E2ECC03404CD28342F619172FE9CE98583FF8E4F1232EEF28183C3FE3B1B4C6FAD733BB5FCBC2EC22005C58EF1837D1683B2C6F34A26C1B2EFFA886B4238';
const RFC7919_3072_HEAD = `${RFC7919_PRIME_HEAD}611FCFDCDE355B3B6519035BBC34F4DEF99C023861B46FC9D6E6C9077AD91D2691F7F7EE598CB0FAC186D91CAEFE130985139270B4130C93BC437944F4FD4452E2D74DD364F2E21E71F54BFF5CAE82AB9C9DF69EE86D2BC522363A0DABC521979B0DEADA1DBF9A42D5C4484E0ABCD06BFA53DDEF3C1B20EE3FD59D7C25E41D2B66`;
const RFC7919_4096_HEAD = `${RFC7919_3072_HEAD}9E1EF16E6F52C3164DF4FB7930E9E4E58857B6AC7D5F42D69F6D187763CF1D5503400487F55BA57E31CC7A7135C886EFB4318AED6A1E012D9E6832A907600A918130C46DC778F971AD0038092999A333CB8B7A1A1DB93D7140003C2A4ECEA9F98D0ACC0A8291CDCEC97DCF8EC9B55A7F88A46B4DB5A851F44182E1C68A007E5E`;
const RFC7919_6144_HEAD = `${RFC7919_4096_HEAD}0DD9020BFD64B645036C7A4E677D2C38532A3A23BA4442CAF53EA63BB454329B7624C8917BDD64B1C0FD4CB38E8C334C701C3ACDAD0657FCCFEC719B1F5C3E4E46041F388147FB4CFDB477A52471F7A9A96910B855322EDB6340D8A00EF092350511E30ABEC1FFF9E3A26E7FB29F8C183023C3587E38DA0077D9B4763E4E4B94B2BBC194C6651E77CAF992EEAAC0232A281BF6B3A739C1226116820AE8DB5847A67CBEF9C9091B462D538CD72B03746AE77F5E62292C311562A846505DC82DB854338AE49F5235C95B91178CCF2DD5CACEF403EC9D1810C6272B045B3B71F9DC6B80D63FDD4A8E9ADB1E6962A69526D43161C1A41D570D7938DAD4A40E329C`;
export const FFDHE_GROUPS: ReadonlyArray<{ name: string; bits: number; prime: string; ncsc: NcscClass }> = [
  // 2021: ffdhe2048 Uit te faseren; 2025: Onvoldoende.
  { name: 'ffdhe2048', bits: 2048, prime: `${RFC7919_PRIME_HEAD}61285C97FFFFFFFFFFFFFFFF`, ncsc: 'Onvoldoende' },
  { name: 'ffdhe3072', bits: 3072, prime: `${RFC7919_3072_HEAD}C62E37FFFFFFFFFFFFFFFF`, ncsc: 'Uit te faseren' },
  { name: 'ffdhe4096', bits: 4096, prime: `${RFC7919_4096_HEAD}655F6AFFFFFFFFFFFFFFFF`, ncsc: 'Uit te faseren' },
  { name: 'ffdhe6144', bits: 6144, prime: `${RFC7919_6144_HEAD}D0E40E65FFFFFFFFFFFFFFFF`, ncsc: 'Uit te faseren' },
  {
    name: 'ffdhe8192',
    bits: 8192,
    prime: `${RFC7919_6144_HEAD}CFF46AAA36AD004CF600C8381E425A31D951AE64FDB23FCEC9509D43687FEB69EDD1CC5E0B8CC3BDF64B10EF86B63142A3AB8829555B2F747C932665CB2C0F1CC01BD70229388839D2AF05E454504AC78B7582822846C0BA35C35F5C59160CC046FD8251541FC68C9C86B022BB7099876A460E7451A8A93109703FEE1C217E6C3826E52C51AA691E0E423CFC99E9E31650C1217B624816CDAD9A95F9D5B8019488D9C0A0A1FE3075A577E23183F81D4A3F2FA4571EFC8CE0BA8A4FE8B6855DFE72B0A66EDED2FBABFBE58A30FAFABE1C5D71A87E2F741EF8C1FE86FEA6BBFDE530677F0D97D11D49F7A8443D0822E506A9F4614E011E2A94838FF88CD68C8BB7C5C6424CFFFFFFFFFFFFFFFF`,
    ncsc: 'Uit te faseren',
  },
];

/**
 * Older well-known groups servers still use, all Onvoldoende, named so the owner recognises them:
 * the RFC 2409 and RFC 3526 MODP groups (Node ships their primes). OpenSSL's dhparam "auto" is
 * RFC 3526 group 14 for a 2048-bit key.
 */
const MODP_GROUPS: ReadonlyMap<string, string> = new Map(
  (
    [
      ['modp1', 'RFC 2409 groep 1'],
      ['modp2', 'RFC 2409 groep 2'],
      ['modp5', 'RFC 3526 groep 5'],
      ['modp14', 'RFC 3526 groep 14'],
      ['modp15', 'RFC 3526 groep 15'],
      ['modp16', 'RFC 3526 groep 16'],
    ] as const
  ).map(([node, name]) => [getDiffieHellman(node).getPrime('hex').toUpperCase(), name]),
);

/** A DHE group as the guideline judges it: only RFC 7919 groups of 3072 bits or more pass. */
export function dhGroupVerdict(primeHex: string, generatorHex: string): { name: string; ncsc: NcscClass } {
  const hex = primeHex.replace(/^(00)+/, '').toUpperCase();
  const bits = hex.length * 4 - (hex.length ? Math.clz32(parseInt(hex[0]!, 16)) - 28 : 0);
  const named = /^0*2$/.test(generatorHex) ? FFDHE_GROUPS.find((g) => g.prime === hex) : undefined;
  if (named) return { name: `DHE ${named.bits} bits (${named.name})`, ncsc: named.ncsc };
  const known = MODP_GROUPS.get(hex);
  return { name: `DHE ${bits} bits (${known ? `${known}, ` : ''}geen RFC 7919-groep)`, ncsc: 'Onvoldoende' };
}

/** 3.3.2.1: RSA certificate keys. 2021 and 2025 agree; internet.nl's CERT_RSA_MIN_*_KEY_SIZE. */
export function certificateKeyClass(keyType: string, bits: number | null): NcscClass | null {
  if (bits === null) return null;
  if (keyType === 'rsa' || keyType === 'rsa-pss' || keyType === 'dsa')
    return bits >= 3072 ? 'Goed' : bits >= 2048 ? 'Uit te faseren' : 'Onvoldoende';
  if (keyType === 'ec') return bits >= 256 ? 'Goed' : bits >= 224 ? 'Uit te faseren' : 'Onvoldoende';
  return 'Goed';
}

/** 3.3.5: hash functions, for certificate signatures and the key-exchange signature alike. */
export function hashClass(hash: string): NcscClass {
  const h = hash.toLowerCase().replace(/-/g, '');
  if (/^(sha256|sha384|sha512|intrinsic)$/.test(h)) return 'Goed';
  if (h === 'sha224') return 'Uit te faseren';
  return 'Onvoldoende';
}

/** TLS 1.2 SignatureScheme code points (RFC 8446 4.2.3, RFC 5246 7.4.1.4.1) and the hash each uses. */
export function signatureSchemeHash(code: number): { name: string; hash: string } {
  const intrinsic: Record<number, string> = {
    2052: 'rsa_pss_rsae_sha256',
    2053: 'rsa_pss_rsae_sha384',
    2054: 'rsa_pss_rsae_sha512',
    2055: 'ed25519',
    2056: 'ed448',
    2057: 'rsa_pss_pss_sha256',
    2058: 'rsa_pss_pss_sha384',
    2059: 'rsa_pss_pss_sha512',
  };
  if (intrinsic[code]) return { name: intrinsic[code]!, hash: 'intrinsic' };
  const hash = ['none', 'md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512'][code >> 8] ?? 'onbekend';
  const algorithm = ['anonymous', 'rsa_pkcs1', 'dsa', 'ecdsa'][code & 0xff] ?? 'onbekend';
  return { name: `${algorithm}_${hash}`, hash };
}

/** SignatureSchemes offered to learn whether a server signs its key exchange with SHA-1/MD5, or SHA-224. */
export const SIGNATURE_SCHEMES_BY_HASH = {
  insufficient: [0x0101, 0x0201, 0x0202, 0x0203],
  phaseOut: [0x0301, 0x0302, 0x0303],
} as const;
