import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import tls from 'node:tls';
import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate } from '@peculiar/asn1-x509';
import type { ChainCertificate } from '../types.ts';

// Signature algorithm OIDs (RFC 3279, 4055, 5758, 8410) by the name testssl.sh and OpenSSL print.
const SIGNATURE_ALGORITHMS: Record<string, string> = {
  '1.2.840.113549.1.1.4': 'md5WithRSAEncryption',
  '1.2.840.113549.1.1.2': 'md2WithRSAEncryption',
  '1.2.840.113549.1.1.5': 'sha1WithRSAEncryption',
  '1.2.840.113549.1.1.14': 'sha224WithRSAEncryption',
  '1.2.840.113549.1.1.11': 'sha256WithRSAEncryption',
  '1.2.840.113549.1.1.12': 'sha384WithRSAEncryption',
  '1.2.840.113549.1.1.13': 'sha512WithRSAEncryption',
  '1.2.840.113549.1.1.10': 'rsassaPss',
  '1.2.840.10045.4.1': 'ecdsa-with-SHA1',
  '1.2.840.10045.4.3.1': 'ecdsa-with-SHA224',
  '1.2.840.10045.4.3.2': 'ecdsa-with-SHA256',
  '1.2.840.10045.4.3.3': 'ecdsa-with-SHA384',
  '1.2.840.10045.4.3.4': 'ecdsa-with-SHA512',
  '1.2.840.10040.4.3': 'dsaWithSHA1',
  '2.16.840.1.101.3.4.3.2': 'dsa_with_SHA256',
  '1.3.101.112': 'ED25519',
  '1.3.101.113': 'ED448',
};

const CURVE_BITS: Record<string, number> = {
  prime256v1: 256,
  secp256k1: 256,
  secp384r1: 384,
  secp521r1: 521,
  secp224r1: 224,
  prime192v1: 192,
  secp192k1: 192,
  secp160r1: 160,
};

function signatureAlgorithm(der: Buffer): string | null {
  try {
    const oid = AsnConvert.parse(der, Certificate).signatureAlgorithm.algorithm;
    return SIGNATURE_ALGORITHMS[oid] ?? oid;
  } catch {
    return null;
  }
}

function keyOf(der: Buffer): Pick<ChainCertificate, 'keyType' | 'keyBits'> {
  try {
    const key = new X509Certificate(der).publicKey;
    const details = key.asymmetricKeyDetails ?? {};
    const curve = details.namedCurve;
    const bits =
      details.modulusLength ?? (curve ? (CURVE_BITS[curve] ?? Number(curve.match(/\d{3}/)?.[0] ?? NaN)) : null);
    return { keyType: key.asymmetricKeyType ?? 'onbekend', keyBits: Number.isFinite(bits) ? (bits as number) : null };
  } catch {
    return { keyType: 'onbekend', keyBits: null };
  }
}

export const describeName = (name: tls.Certificate | undefined) =>
  name
    ? Object.entries(name)
        .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join('+') : value}`)
        .join(', ')
    : '';

/**
 * Subject and issuer are the same name. Node links the last certificate it has to itself when the
 * issuer is missing, so the link cannot tell a self-signed certificate from an incomplete chain.
 */
export const isSelfIssued = (cert: tls.PeerCertificate) => describeName(cert.subject) === describeName(cert.issuer);

/** The linked certificates from the leaf up, each once (Node links the last one to itself). */
function issuerPath(leaf: tls.DetailedPeerCertificate): tls.DetailedPeerCertificate[] {
  const path: tls.DetailedPeerCertificate[] = [];
  const seen = new Set<string>();
  let cert: tls.DetailedPeerCertificate | undefined = leaf;
  while (cert?.raw && !seen.has(cert.fingerprint256)) {
    seen.add(cert.fingerprint256);
    path.push(cert);
    cert = cert.issuerCertificate;
  }
  return path;
}

/** Every certificate the server sent, leaf first, as DER (what DANE records are compared with). */
export const presentedChain = (leaf: tls.DetailedPeerCertificate): Buffer[] => issuerPath(leaf).map((c) => c.raw);

/** A certificate by what a trust store matches: its subject and its public key. */
function anchorKey(der: Buffer): string | null {
  try {
    const cert = new X509Certificate(der);
    const spki = cert.publicKey.export({ type: 'spki', format: 'der' });
    return `${cert.subject}\n${createHash('sha256').update(spki).digest('hex')}`;
  } catch {
    return null;
  }
}

let trustedAnchors: Set<string> | null = null;

/**
 * The roots Node trusts: its bundled Mozilla store and the deployment's NODE_EXTRA_CA_CERTS, read
 * once. OpenSSL tries trusted certificates first, so a path ends at the first certificate that one
 * of these matches, and a sent cross-sign above it (expired or not) plays no part.
 */
function isTrustAnchor(der: Buffer): boolean {
  if (!trustedAnchors) {
    const pems = [...tls.rootCertificates];
    const extra = process.env.NODE_EXTRA_CA_CERTS;
    if (extra) {
      try {
        pems.push(
          ...(readFileSync(extra, 'utf8').match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? []),
        );
      } catch {
        // Node itself warns about an unreadable file and goes on without it.
      }
    }
    trustedAnchors = new Set(
      pems.flatMap((pem) => {
        const key = anchorKey(new X509Certificate(pem).raw);
        return key ? [key] : [];
      }),
    );
  }
  const key = anchorKey(der);
  return key !== null && trustedAnchors.has(key);
}

/**
 * The certificates of the presented chain, leaf first, up to and excluding the trust anchor (a
 * self-signed root, or the trusted root's name and key under a cross-sign): a root's own signature,
 * key and dates are not what clients check (testssl.sh judges the same ones).
 */
export function chainFacts(leaf: tls.DetailedPeerCertificate): ChainCertificate[] {
  const chain: ChainCertificate[] = [];
  for (const cert of issuerPath(leaf)) {
    const selfIssued = isSelfIssued(cert);
    if (chain.length > 0 && (selfIssued || isTrustAnchor(cert.raw))) break;
    chain.push({
      subject: describeName(cert.subject),
      notAfter: new Date(cert.valid_to).toISOString(),
      ...keyOf(cert.raw),
      signatureAlgorithm: selfIssued ? null : signatureAlgorithm(cert.raw),
    });
  }
  return chain;
}
