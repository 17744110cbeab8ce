import type { FindingType } from '../catalog/index.ts';
import {
  classRank,
  dhGroupVerdict,
  groupClass,
  groupName,
  hashClass,
  signatureSchemeHash,
  suiteFacts,
  TLS13_INSUFFICIENT_SUITE,
  type InsufficientSuiteReason,
} from '../rules/tls-guideline.ts';
import type { NcscClass } from '../vocabulary.ts';
import type { AcceptedKeyExchange, CipherEvidence, Observation, TlsEvidence } from '../types.ts';
import { observe, type Check } from './context.ts';
import { originOf } from './transport.ts';

// The NCSC-NL guideline's verdicts over the suites, groups and hashes the server accepted
// (scanner/rules/tls-guideline.ts), and the cipher order.

const INSUFFICIENT_SUITE_FINDINGS: Record<InsufficientSuiteReason, FindingType> = {
  null: 'tls_cipher_null',
  anonymous: 'tls_cipher_anonymous',
  export: 'tls_cipher_export',
  rc4: 'tls_cipher_rc4',
  triple_des: 'tls_cipher_3des',
  static_rsa: 'tls_cipher_static_rsa',
  cbc_sha1: 'tls_cipher_cbc_sha1',
  ccm8: 'tls_cipher_ccm8',
  other: 'tls_cipher_insufficient',
};

/** Names listed in one actual_value; a server accepting more is summarised with a count. */
const MAX_NAMED = 6;
const accepted = (names: string[]) =>
  `${names.slice(0, MAX_NAMED).join(', ')}${names.length > MAX_NAMED ? ` en ${names.length - MAX_NAMED} andere` : ''} geaccepteerd`;

/** A check over the accepted suites: runs only when they were probed, with the origin to report at. */
const overCiphers =
  (check: (tls: TlsEvidence, ciphers: CipherEvidence, at: string) => Observation[]): Check =>
  (ctx) => {
    const tls = ctx.evidence.tls;
    return tls?.ciphers ? check(tls, tls.ciphers, originOf(tls)) : [];
  };

const forwardSecrecy = (ciphers: CipherEvidence, tls13: boolean) =>
  tls13 || ciphers.accepted.some((s) => suiteFacts(s.code).forwardSecret);

export const checkCipherSuites = overCiphers((tls, ciphers, at) => {
  const byType = new Map<FindingType, string[]>();
  const add = (type: FindingType, name: string) => byType.set(type, [...(byType.get(type) ?? []), name]);
  for (const { code } of ciphers.accepted) {
    const suite = suiteFacts(code);
    if (suite.reason) add(INSUFFICIENT_SUITE_FINDINGS[suite.reason], suite.name);
    else if (suite.ncsc === 'Uit te faseren') add('tls_cipher_phase_out', suite.name);
  }
  if (ciphers.tls13InsufficientSuite) add('tls_cipher_ccm8', `${TLS13_INSUFFICIENT_SUITE.name} (TLS 1.3)`);
  const found = [...byType].map(([type, names]) => observe(type, at, accepted(names)));
  const tls13 = tls.protocols['TLSv1.3'];
  if (!forwardSecrecy(ciphers, tls13) && ciphers.accepted.length)
    found.push(observe('tls_no_forward_secrecy', at, 'alleen statische RSA-sleutelafspraak, geen TLS 1.3'));
  if (!tls13 && ciphers.accepted.length && !ciphers.accepted.some((s) => suiteFacts(s.code).aead))
    found.push(observe('tls_no_aead', at, 'alleen CBC-suites, geen TLS 1.3'));
  return found;
});

function keyExchangeVerdict(kx: AcceptedKeyExchange): { name: string; ncsc: NcscClass } {
  if (kx.kind === 'dhe') return dhGroupVerdict(kx.prime, kx.generator);
  return { name: `ECDHE ${groupName(kx.group)}`, ncsc: groupClass(kx.group) };
}

/** ECDHE curves and DH groups: what the server used in the enumeration, and what it took when offered only weak curves. */
export const checkKeyExchangeGroups = overCiphers((_tls, ciphers, at) => {
  const verdicts = new Map<string, NcscClass>();
  for (const { keyExchange } of ciphers.accepted) {
    if (keyExchange) {
      const { name, ncsc } = keyExchangeVerdict(keyExchange);
      verdicts.set(name, ncsc);
    }
  }
  for (const group of ciphers.weakGroups) verdicts.set(`ECDHE ${groupName(group)}`, groupClass(group));
  const named = (kind: 'DHE' | 'ECDHE', ncsc: NcscClass) =>
    [...verdicts].filter(([name, c]) => name.startsWith(`${kind} `) && c === ncsc).map(([name]) => name);
  const found = [];
  const rules: Array<[FindingType, 'DHE' | 'ECDHE', NcscClass]> = [
    ['tls_dh_group_insufficient', 'DHE', 'Onvoldoende'],
    ['tls_dh_group_phase_out', 'DHE', 'Uit te faseren'],
    ['tls_curve_insufficient', 'ECDHE', 'Onvoldoende'],
    ['tls_curve_phase_out', 'ECDHE', 'Uit te faseren'],
  ];
  for (const [type, kind, ncsc] of rules) {
    const names = named(kind, ncsc);
    if (names.length) found.push(observe(type, at, names.join('; ')));
  }
  return found;
});

/** The hash that signs the key exchange (SHA-1/MD5 Onvoldoende, SHA-224 Uit te faseren). */
export const checkKeyExchangeHash = overCiphers((_tls, ciphers, at) => {
  const schemes = new Set(
    [...ciphers.accepted.map((s) => s.keyExchange?.signatureScheme ?? null), ...ciphers.weakKeyExchangeSchemes].filter(
      (s): s is number => s !== null,
    ),
  );
  const of = (ncsc: NcscClass) =>
    [...schemes]
      .map(signatureSchemeHash)
      .filter((s) => hashClass(s.hash) === ncsc)
      .map((s) => s.name);
  const found = [];
  const insufficient = of('Onvoldoende');
  const phaseOut = of('Uit te faseren');
  if (insufficient.length)
    found.push(
      observe('tls_key_exchange_hash_insufficient', at, `sleutelafspraak ondertekend met ${insufficient.join(', ')}`),
    );
  if (phaseOut.length)
    found.push(
      observe('tls_key_exchange_hash_phase_out', at, `sleutelafspraak ondertekend met ${phaseOut.join(', ')}`),
    );
  return found;
});

/**
 * The server must choose, and choose the better class first (testssl.sh `cipher_order`, internet.nl
 * "cipher order"). Judged on TLS 1.2 and below; TLS 1.3 suites are all Goed or Voldoende but CCM_8.
 */
export const checkCipherOrder = overCiphers((_tls, ciphers, at) => {
  if (ciphers.serverOrder === null) return [];
  const suites = ciphers.accepted.map((s) => suiteFacts(s.code));
  if (!ciphers.serverOrder)
    return [
      observe(
        'tls_cipher_order_missing',
        at,
        `de server volgt de volgorde van de client (${suites.length} suites geaccepteerd)`,
      ),
    ];
  for (const [i, preferred] of suites.entries()) {
    const better = suites.slice(i + 1).find((later) => classRank(later.ncsc) < classRank(preferred.ncsc));
    if (better)
      return [
        observe(
          'tls_cipher_order_weak_first',
          at,
          `${preferred.name} (${preferred.ncsc}) verkozen boven ${better.name} (${better.ncsc})`,
        ),
      ];
  }
  return [];
});

/** Renegotiation, Extended Master Secret and compression, as internet.nl judges them. */
export const checkTlsFeatures: Check = (ctx) => {
  const tls = ctx.evidence.tls;
  const features = tls?.features;
  if (!tls || !features) return [];
  const at = originOf(tls);
  const found = [];
  if (features.secureRenegotiation === false)
    found.push(
      observe('tls_secure_renegotiation_missing', at, 'geen renegotiation_info-extensie (RFC 5746) in de ServerHello'),
    );
  if (features.extendedMasterSecret === false)
    found.push(
      observe('tls_extended_master_secret_missing', at, 'geen extended_master_secret-extensie (RFC 7627) bij TLS 1.2'),
    );
  if (features.compression) found.push(observe('tls_compression_enabled', at, 'DEFLATE-compressie gekozen'));
  if (features.clientRenegotiation)
    found.push(observe('tls_client_renegotiation_allowed', at, 'door de client gestarte renegotiation geaccepteerd'));
  return found;
};
