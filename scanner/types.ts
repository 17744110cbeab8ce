import type { WeakSuiteGroup } from './cipher-suites.ts';
import type { ExposureType } from './exposure-rules.ts';
import type { CatalogEntry } from './catalog/entry.ts';
import type { FindingType } from './catalog/index.ts';
import type { FetchedResponse, HeaderMap, RedirectHop } from './http-evidence.ts';

export type { CatalogEntry, FetchedResponse, HeaderMap, RedirectHop };

/** The page whose headers and HTML are analysed (the Observatory's "auto" response). */
export interface PageEvidence {
  url: string;
  status: number;
  headers: HeaderMap;
  html: string | null;
  /** The Origin header sent with the page request, to detect reflected CORS origins. */
  requestOrigin: string;
}

export interface HttpsEvidence {
  /** Whether the certificate chain validated against the trust store and matched the host. */
  verified: boolean;
  headers: HeaderMap;
}

export type TlsVersion = 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';

export interface CertificateEvidence {
  subject: string;
  issuer: string;
  validFrom: string;
  validTo: string;
  /** OpenSSL verification error code, null when the chain is trusted. */
  chainError: string | null;
  hostnameMatches: boolean;
  selfSigned: boolean;
  /** Whether the leaf names its hosts in subjectAltName; browsers ignore the CN. */
  hasSubjectAltName: boolean;
  /** Leaf first, then the intermediates; a self-signed root is left out. */
  chain: ChainCertificate[];
}

export interface ChainCertificate {
  subject: string;
  /** Node's asymmetricKeyType: rsa, rsa-pss, ec, dsa, ed25519... */
  keyType: string;
  keyBits: number | null;
  /** OpenSSL's name of the signature algorithm; null for a self-signed certificate. */
  signatureAlgorithm: string | null;
}

/** What separate ClientHellos learned about the server's cipher suites (TLS 1.0-1.2). */
export interface CipherEvidence {
  /** Weak suite groups the server accepted. */
  weak: WeakSuiteGroup[];
  /** Whether an ECDHE/DHE suite (or TLS 1.3) is available. */
  forwardSecrecy: boolean;
  /** Whether a GCM/CCM/ChaCha20 suite (or TLS 1.3) is available. */
  aead: boolean;
}

export interface TlsEvidence {
  host: string;
  port: number;
  /** Which protocol versions the server accepted in separate handshakes. */
  protocols: Record<TlsVersion, boolean>;
  certificate: CertificateEvidence | null;
  /** Null when no handshake succeeded, so suites were not probed. */
  ciphers: CipherEvidence | null;
}

export interface ProbeEvidence {
  /** Finding type the probe looks for. */
  type: ExposureType;
  url: string;
  response: FetchedResponse | null;
}

export interface ScanEvidence {
  target: string;
  scannedAt: Date;
  page: PageEvidence | null;
  /** HTTPS response of the site, null when HTTPS is unavailable. */
  https: HttpsEvidence | null;
  /** Redirect chain starting at the http:// variant; empty when plain HTTP is unreachable. */
  httpRedirects: RedirectHop[];
  tls: TlsEvidence | null;
  /** Answers to random paths of several shapes on the probed origin (soft-404 detection). */
  notFoundBaselines: FetchedResponse[];
  probes: ProbeEvidence[];
}

/** What a pure check reports; the catalog supplies the rest of the finding. */
export interface Observation {
  type: FindingType;
  endpoint: string;
  actual_value: string | null;
}


/** A finding as the scanner reports it: the catalog's texts plus what was observed. */
export type ScanFinding = { finding_type: FindingType } & Omit<CatalogEntry, 'observatory'> & Omit<Observation, 'type'>;

