import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';

export interface KeyAndCert {
  keyPem: string;
  certPem: string;
}

export interface LeafOptions {
  /** DNS names and IP addresses the certificate is valid for. */
  hosts?: string[];
  notBefore?: Date;
  notAfter?: Date;
  /** Sign with the leaf's own key instead of the CA's. */
  selfSigned?: boolean;
  /** RSA modulus length; 2048 by default. */
  keyBits?: number;
  /** Digest of the issuer's signature; sha256 by default. */
  digest?: 'sha256' | 'sha1' | 'md5';
  /** Leave out subjectAltName: the host only in the CN, as certificates before 2017 did. */
  noSubjectAltName?: boolean;
  /** Make an intermediate CA certificate instead of a server certificate. */
  ca?: boolean;
}

// Where public CAs publish revocation lists; real certificates carry one, and testssl.sh reports
// a certificate without CRL or OCSP address, so the test certificates carry one too.
const CRL_URL = 'http://crl.scanner-test.invalid/ca.crl';

const DAY = 86_400_000;

function newKeyPair(bits = 2048): {
  privateKeyPem: string;
  publicKey: forge.pki.PublicKey;
  privateKey: forge.pki.rsa.PrivateKey;
} {
  // Node generates the RSA key natively (fast); forge only assembles and signs the certificate.
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  const privateKeyPem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const forgeKey = forge.pki.privateKeyFromPem(privateKeyPem) as forge.pki.rsa.PrivateKey;
  return { privateKeyPem, privateKey: forgeKey, publicKey: forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e) };
}

function baseCertificate(
  publicKey: forge.pki.PublicKey,
  commonName: string,
  notBefore: Date,
  notAfter: Date,
): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = notBefore;
  cert.validity.notAfter = notAfter;
  cert.setSubject([{ name: 'commonName', value: commonName }]);
  return cert;
}

/** A certificate authority made at test time; tests trust it through NODE_EXTRA_CA_CERTS. */
export function createCa(name = 'Scanner Test CA'): KeyAndCert {
  const keys = newKeyPair();
  const cert = baseCertificate(keys.publicKey, name, new Date(Date.now() - DAY), new Date(Date.now() + 3650 * DAY));
  cert.setIssuer(cert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return { keyPem: keys.privateKeyPem, certPem: forge.pki.certificateToPem(cert) };
}

const DIGESTS = {
  sha256: () => forge.md.sha256.create(),
  sha1: () => forge.md.sha1.create(),
  md5: () => forge.md.md5.create(),
};

/** A certificate issued by `issuer` (the test CA or an intermediate), or self-signed. */
export function issueCertificate(issuer: KeyAndCert, options: LeafOptions = {}): KeyAndCert {
  const hosts = options.hosts ?? ['127.0.0.1', 'localhost'];
  const keys = newKeyPair(options.keyBits);
  const cert = baseCertificate(
    keys.publicKey,
    options.ca ? 'Scanner Test Intermediate CA' : hosts[0]!,
    options.notBefore ?? new Date(Date.now() - DAY),
    options.notAfter ?? new Date(Date.now() + 365 * DAY),
  );
  const issuerCert = forge.pki.certificateFromPem(issuer.certPem);
  cert.setIssuer(options.selfSigned ? cert.subject.attributes : issuerCert.subject.attributes);
  const usage = options.ca
    ? [
        { name: 'basicConstraints', cA: true, critical: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
      ]
    : [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
        { name: 'extKeyUsage', serverAuth: true },
      ];
  const altNames = {
    name: 'subjectAltName',
    altNames: hosts.map((host) => (/^[\d.]+$|:/.test(host) ? { type: 7, ip: host } : { type: 2, value: host })),
  };
  cert.setExtensions([
    ...usage,
    ...(options.ca || options.noSubjectAltName ? [] : [altNames]),
    { name: 'subjectKeyIdentifier' },
    { name: 'cRLDistributionPoints', altNames: [{ type: 6, value: CRL_URL }] },
  ]);
  const signer = options.selfSigned ? keys.privateKey : forge.pki.privateKeyFromPem(issuer.keyPem);
  cert.sign(signer as forge.pki.rsa.PrivateKey, DIGESTS[options.digest ?? 'sha256']());
  return { keyPem: keys.privateKeyPem, certPem: forge.pki.certificateToPem(cert) };
}

/**
 * A cross-sign: `ca`'s name and key, issued by `by` and valid until `notAfter`. Servers send one to
 * reach clients that only trust `by` (Let's Encrypt's ISRG Root X1 under DST Root CA X3 until 2024);
 * clients that trust `ca` itself end the path at their own copy and never look at it.
 */
export function crossSign(ca: KeyAndCert, by: KeyAndCert, notAfter: Date): KeyAndCert {
  const original = forge.pki.certificateFromPem(ca.certPem);
  const cert = baseCertificate(original.publicKey, 'unused', new Date(notAfter.getTime() - 3650 * DAY), notAfter);
  cert.setSubject(original.subject.attributes);
  cert.setIssuer(forge.pki.certificateFromPem(by.certPem).subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(by.keyPem) as forge.pki.rsa.PrivateKey, forge.md.sha256.create());
  return { keyPem: ca.keyPem, certPem: forge.pki.certificateToPem(cert) };
}
