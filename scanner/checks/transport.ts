import type { ChainCertificate, TlsEvidence } from '../types.ts';
import { certificateKeyClass } from '../rules/tls-guideline.ts';
import { observe, type Check } from './context.ts';

const DAY_MS = 86_400_000;
const SELF_SIGNED_ERRORS = new Set(['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN']);
const DATE_ERRORS = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);
/** OpenSSL's error when the server sent only its leaf and the issuer is nowhere to be found. */
const LEAF_ONLY_ERROR = 'UNABLE_TO_VERIFY_LEAF_SIGNATURE';

/** The probed HTTPS origin, built with the URL API so IPv6 literals keep their brackets. */
export function originOf(tls: TlsEvidence): string {
  const url = new URL('https://localhost/');
  url.hostname = tls.host.includes(':') ? `[${tls.host}]` : tls.host;
  url.port = String(tls.port);
  return url.href;
}

export const checkHttpsAvailable: Check = (ctx) => {
  const { tls, target } = ctx.evidence;
  const accepted = tls ? Object.values(tls.protocols).some(Boolean) : false;
  if (accepted) return [];
  if (tls) return [observe('https_unavailable', originOf(tls))];
  const https = new URL('/', target);
  https.protocol = 'https:';
  https.port = '';
  return [observe('https_unavailable', https.href)];
};

export const checkCertificate: Check = (ctx) => {
  const tls = ctx.evidence.tls;
  const cert = tls?.certificate;
  if (!tls || !cert) return [];
  const at = originOf(tls);
  const found = [];
  const now = ctx.evidence.scannedAt.getTime();
  const validTo = Date.parse(cert.validTo);
  const validFrom = Date.parse(cert.validFrom);
  if (validTo < now) found.push(observe('tls_certificate_expired', at, `geldig tot ${cert.validTo}`));
  else if (validFrom > now) found.push(observe('tls_certificate_not_yet_valid', at, `geldig vanaf ${cert.validFrom}`));
  else if (validTo - now < 14 * DAY_MS)
    found.push(observe('tls_certificate_expires_within_14_days', at, `geldig tot ${cert.validTo}`));
  else if (validTo - now < 30 * DAY_MS)
    found.push(observe('tls_certificate_expires_within_30_days', at, `geldig tot ${cert.validTo}`));
  if (cert.chainError && !DATE_ERRORS.has(cert.chainError)) {
    const selfSigned = cert.selfSigned || SELF_SIGNED_ERRORS.has(cert.chainError);
    const type = selfSigned
      ? 'tls_certificate_self_signed'
      : cert.chainError === LEAF_ONLY_ERROR
        ? 'tls_certificate_chain_incomplete'
        : 'tls_certificate_untrusted';
    found.push(observe(type, at, `${cert.chainError}; uitgever: ${cert.issuer}`));
  }
  // One finding per stage, naming every intermediate in it (a chain rarely has more than two).
  const intermediates = cert.chain.slice(1);
  const seen = (list: typeof intermediates) => list.map((c) => `${c.subject}, geldig tot ${c.notAfter}`).join('; ');
  const expired = intermediates.filter((c) => Date.parse(c.notAfter) < now);
  const ending = intermediates.filter((c) => !expired.includes(c) && Date.parse(c.notAfter) - now < 30 * DAY_MS);
  if (expired.length > 0) found.push(observe('tls_intermediate_certificate_expired', at, seen(expired)));
  if (ending.length > 0) found.push(observe('tls_intermediate_certificate_expires_within_30_days', at, seen(ending)));
  if (!cert.hostnameMatches)
    found.push(observe('tls_certificate_hostname_mismatch', at, `host ${tls.host}; certificaat: ${cert.subject}`));
  if (!cert.hasSubjectAltName)
    found.push(observe('tls_certificate_no_subject_alt_name', at, `alleen ${cert.subject || 'geen naam'}`));
  return found;
};

/** Minimum bits per key family: below `weak` a key is weak, below `broken` it can be broken today. */
const KEY_BITS: Record<string, { weak: number; broken: number }> = {
  rsa: { weak: 2048, broken: 1024 },
  'rsa-pss': { weak: 2048, broken: 1024 },
  dsa: { weak: 2048, broken: 1024 },
  ec: { weak: 256, broken: 224 },
};
const WEAK_SIGNATURES = /^(md2|md5|sha1)WithRSAEncryption$|^ecdsa-with-SHA1$|^dsaWithSHA1$/;
/** SHA-224 signatures: Uit te faseren in the NCSC guideline. */
const PHASE_OUT_SIGNATURES = /^sha224WithRSAEncryption$|^ecdsa-with-SHA224$|^dsa_with_SHA224$/;

const describeKey = (c: ChainCertificate) => `${c.keyType.toUpperCase()} ${c.keyBits} bits (${c.subject})`;

export const checkCertificateKeys: Check = (ctx) => {
  const tls = ctx.evidence.tls;
  if (!tls) return [];
  const chain = tls.certificate?.chain ?? [];
  const at = originOf(tls);
  const below = (c: ChainCertificate, level: 'weak' | 'broken') => {
    const limit = KEY_BITS[c.keyType];
    return c.keyBits !== null && limit !== undefined && c.keyBits < limit[level];
  };
  const broken = chain.filter((c) => below(c, 'broken'));
  const weak = chain.filter((c) => !broken.includes(c) && below(c, 'weak'));
  const phaseOut = chain.filter(
    (c) => !broken.includes(c) && !weak.includes(c) && certificateKeyClass(c.keyType, c.keyBits) === 'Uit te faseren',
  );
  const signedWith = (pattern: RegExp) =>
    chain.filter((c) => c.signatureAlgorithm !== null && pattern.test(c.signatureAlgorithm));
  const describeSignature = (c: ChainCertificate) => `${c.signatureAlgorithm} (${c.subject})`;
  const badSignatures = signedWith(WEAK_SIGNATURES);
  const phaseOutSignatures = signedWith(PHASE_OUT_SIGNATURES);
  const found = [];
  if (broken.length) found.push(observe('tls_certificate_broken_key', at, broken.map(describeKey).join('; ')));
  if (weak.length) found.push(observe('tls_certificate_weak_key', at, weak.map(describeKey).join('; ')));
  if (phaseOut.length) found.push(observe('tls_certificate_key_phase_out', at, phaseOut.map(describeKey).join('; ')));
  if (badSignatures.length)
    found.push(observe('tls_certificate_weak_signature', at, badSignatures.map(describeSignature).join('; ')));
  if (phaseOutSignatures.length)
    found.push(
      observe('tls_certificate_signature_phase_out', at, phaseOutSignatures.map(describeSignature).join('; ')),
    );
  return found;
};

export const checkProtocolVersions: Check = (ctx) => {
  const tls = ctx.evidence.tls;
  if (!tls || !Object.values(tls.protocols).some(Boolean)) return [];
  const at = originOf(tls);
  const accepted = Object.entries(tls.protocols)
    .filter(([, ok]) => ok)
    .map(([v]) => v)
    .join(', ');
  const found = [];
  if (tls.protocols.TLSv1) found.push(observe('tls_1_0_supported', at, accepted));
  if (tls.protocols['TLSv1.1']) found.push(observe('tls_1_1_supported', at, accepted));
  if (!tls.protocols['TLSv1.2'] && !tls.protocols['TLSv1.3'])
    found.push(observe('tls_modern_protocols_missing', at, accepted));
  else if (!tls.protocols['TLSv1.3']) found.push(observe('tls_1_3_not_supported', at, accepted));
  return found;
};
