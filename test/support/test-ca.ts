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
}

const DAY = 86_400_000;

function newKeyPair(): { privateKeyPem: string; publicKey: forge.pki.PublicKey; privateKey: forge.pki.rsa.PrivateKey } {
  // Node generates the RSA key natively (fast); forge only assembles and signs the certificate.
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKeyPem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const forgeKey = forge.pki.privateKeyFromPem(privateKeyPem) as forge.pki.rsa.PrivateKey;
  return { privateKeyPem, privateKey: forgeKey, publicKey: forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e) };
}

function baseCertificate(publicKey: forge.pki.PublicKey, commonName: string, notBefore: Date, notAfter: Date): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = notBefore;
  cert.validity.notAfter = notAfter;
  cert.setSubject([{ name: 'commonName', value: commonName }]);
  return cert;
}

/** A certificate authority made at test time; tests trust it through NODE_EXTRA_CA_CERTS. */
export function createCa(): KeyAndCert {
  const keys = newKeyPair();
  const cert = baseCertificate(keys.publicKey, 'Scanner Test CA', new Date(Date.now() - DAY), new Date(Date.now() + 3650 * DAY));
  cert.setIssuer(cert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return { keyPem: keys.privateKeyPem, certPem: forge.pki.certificateToPem(cert) };
}

export function issueCertificate(ca: KeyAndCert, options: LeafOptions = {}): KeyAndCert {
  const hosts = options.hosts ?? ['127.0.0.1', 'localhost'];
  const keys = newKeyPair();
  const cert = baseCertificate(
    keys.publicKey,
    hosts[0]!,
    options.notBefore ?? new Date(Date.now() - DAY),
    options.notAfter ?? new Date(Date.now() + 365 * DAY),
  );
  const caCert = forge.pki.certificateFromPem(ca.certPem);
  cert.setIssuer(options.selfSigned ? cert.subject.attributes : caCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: hosts.map((host) => (/^[\d.]+$|:/.test(host) ? { type: 7, ip: host } : { type: 2, value: host })),
    },
  ]);
  const signer = options.selfSigned ? keys.privateKey : forge.pki.privateKeyFromPem(ca.keyPem);
  cert.sign(signer as forge.pki.rsa.PrivateKey, forge.md.sha256.create());
  return { keyPem: keys.privateKeyPem, certPem: forge.pki.certificateToPem(cert) };
}
