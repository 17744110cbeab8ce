import type { TlsEvidence } from '../types.ts';
import { observe, type Check } from './context.ts';

const DAY_MS = 86_400_000;
const SELF_SIGNED_ERRORS = new Set(['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN']);
const DATE_ERRORS = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);

function originOf(tls: TlsEvidence): string {
  const host = tls.host.includes(':') ? `[${tls.host}]` : tls.host;
  return tls.port === 443 ? `https://${host}/` : `https://${host}:${tls.port}/`;
}

export const checkHttpsAvailable: Check = (ctx) => {
  const { tls, target } = ctx.evidence;
  const accepted = tls ? Object.values(tls.protocols).some(Boolean) : false;
  if (accepted) return [];
  const host = new URL(target).host;
  return [observe('https_unavailable', tls ? originOf(tls) : `https://${host.replace(/:\d+$/, '')}/`)];
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
  else if (validTo - now < 14 * DAY_MS) found.push(observe('tls_certificate_expires_within_14_days', at, `geldig tot ${cert.validTo}`));
  else if (validTo - now < 30 * DAY_MS) found.push(observe('tls_certificate_expires_within_30_days', at, `geldig tot ${cert.validTo}`));
  if (cert.chainError && !DATE_ERRORS.has(cert.chainError)) {
    const selfSigned = cert.selfSigned || SELF_SIGNED_ERRORS.has(cert.chainError);
    found.push(observe(selfSigned ? 'tls_certificate_self_signed' : 'tls_certificate_untrusted', at, `${cert.chainError}; uitgever: ${cert.issuer}`));
  }
  if (!cert.hostnameMatches) found.push(observe('tls_certificate_hostname_mismatch', at, `host ${tls.host}; certificaat: ${cert.subject}`));
  return found;
};

export const checkProtocolVersions: Check = (ctx) => {
  const tls = ctx.evidence.tls;
  if (!tls || !Object.values(tls.protocols).some(Boolean)) return [];
  const at = originOf(tls);
  const accepted = Object.entries(tls.protocols).filter(([, ok]) => ok).map(([v]) => v).join(', ');
  const found = [];
  if (tls.protocols.TLSv1) found.push(observe('tls_1_0_supported', at, accepted));
  if (tls.protocols['TLSv1.1']) found.push(observe('tls_1_1_supported', at, accepted));
  if (!tls.protocols['TLSv1.2'] && !tls.protocols['TLSv1.3']) found.push(observe('tls_modern_protocols_missing', at, accepted));
  else if (!tls.protocols['TLSv1.3']) found.push(observe('tls_1_3_not_supported', at, accepted));
  return found;
};
