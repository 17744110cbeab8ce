import type { BackendEvidence, ClientCodeEvidence } from './probes/client-code.ts';
import type { WordPressEvidence } from './probes/wordpress-components.ts';
import type { VulnerabilityDataInUse } from './vulndata/dataset.ts';
import type { NextjsContext } from './vulndata/nextjs-applicability.ts';
import type { Sighting } from './vulndata/sightings.ts';
import type { CaaEvidence } from './net/dns.ts';
import type { MiddlewareBypassEvidence } from './probes/nextjs-middleware.ts';
import type { InternetNlEvidence } from './probes/internetnl.ts';
import type { MailEvidence } from './probes/mail-dns.ts';
import type { MailStatus, SmtpState } from './vocabulary.ts';
import type { ExposureType } from './probes/exposure-rules.ts';
import type { CatalogEntry } from './catalog/entry.ts';
import type { FindingType } from './catalog/index.ts';
import type { FetchedResponse, HeaderMap, RedirectHop } from './net/http-evidence.ts';

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
  /**
   * Leaf first, then the intermediates up to the trust anchor: a self-signed root, or a certificate
   * with the name and key of a trusted root (a cross-sign validation passes by), is left out.
   */
  chain: ChainCertificate[];
  /** The DER certificates as sent (and completed from the trust store), leaf first: for DANE. */
  presented?: Buffer[];
}

export interface ChainCertificate {
  subject: string;
  /** The end of validity, ISO 8601. */
  notAfter: string;
  /** Node's asymmetricKeyType: rsa, rsa-pss, ec, dsa, ed25519... */
  keyType: string;
  keyBits: number | null;
  /** OpenSSL's name of the signature algorithm; null for a self-signed certificate. */
  signatureAlgorithm: string | null;
}

export type AcceptedKeyExchange =
  | { kind: 'ecdhe'; group: number; signatureScheme: number | null }
  | { kind: 'dhe'; prime: string; generator: string; signatureScheme: number | null };

/** What raw ClientHellos learned about the server's TLS 1.2-and-earlier cipher suites. */
export interface CipherEvidence {
  /** Suites the server accepted, by IANA code point, in the order it picked them, each with its key exchange. */
  accepted: Array<{ code: number; keyExchange: AcceptedKeyExchange | null }>;
  /** True when the server enforces its own order (`accepted` is that order), false when it follows the client, null when it accepts fewer than two suites. */
  serverOrder: boolean | null;
  /** The enumeration stopped at its bound or its time budget. */
  truncated: boolean;
  /** Curves the server accepted when offered only Onvoldoende ones, or only Uit te faseren ones. */
  weakGroups: number[];
  /** SignatureSchemes the server signed its key exchange with when offered only SHA-1/MD5, or only SHA-224 ones. */
  weakKeyExchangeSchemes: number[];
  /** TLS 1.3 with TLS_AES_128_CCM_8_SHA256 accepted. */
  /** TLS_AES_128_CCM_8_SHA256 accepted; null when the runtime could not offer it (not tested). */
  tls13InsufficientSuite: boolean | null;
}

/** Protocol features, from the TLS 1.2 ServerHello and a renegotiation attempt; null where not seen. */
export interface TlsFeatureEvidence {
  /** The renegotiation_info extension (RFC 5746) in answer to the SCSV. */
  secureRenegotiation: boolean | null;
  /** extended_master_secret (RFC 7627) on TLS 1.2; null when TLS 1.2 was not negotiated. */
  extendedMasterSecret: boolean | null;
  /** The server picked DEFLATE compression (CRIME). */
  compression: boolean | null;
  /** A renegotiation the client started on TLS 1.2 succeeded. */
  clientRenegotiation: boolean | null;
  /** The TLS 1.3 session ticket allows early data (0-RTT); false without TLS 1.3; null when not tried. */
  earlyData?: boolean | null;
}

/** One address of the entered name as internet.nl's TLS part judges it (tasks/tls/http.py forced_http_check). */
export interface AddressEvidence {
  address: string;
  tls: TlsEvidence | null;
  /** good: http's first redirect goes to https on the same name; no_http: nothing on 80; no_https: nothing on 443. */
  forcedHttps: 'good' | 'bad' | 'no_http' | 'no_https';
  /** The HSTS max-age over https at this address; null without a valid header. */
  hstsMaxAge: number | null;
}

export interface TlsEvidence {
  host: string;
  port: number;
  /** Which protocol versions the server accepted in separate handshakes. */
  protocols: Record<TlsVersion, boolean>;
  certificate: CertificateEvidence | null;
  /** Null when no handshake succeeded, so suites were not probed. */
  ciphers: CipherEvidence | null;
  features: TlsFeatureEvidence | null;
}

export interface SecurityTxtEvidence {
  wellKnownUrl: string;
  legacyUrl: string;
  wellKnown: FetchedResponse | null;
  legacy: FetchedResponse | null;
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
  /** /.well-known/security.txt and /security.txt on the HTTPS origin; null when HTTPS does not work. */
  securityTxt: SecurityTxtEvidence | null;
  /** The CAA record set of the target's host name; null for IP addresses, localhost, or a failing name server. */
  caa: (CaaEvidence & { host: string; domain: string }) | null;
  /** Answers to random paths of several shapes on the probed origin (soft-404 detection). */
  notFoundBaselines: FetchedResponse[];
  probes: ProbeEvidence[];
  /** The page's JavaScript: credentials, libraries and the backends it talks to; null without an HTML page. */
  clientCode: ClientCodeEvidence | null;
  /** What those backends let anyone read; null when not asked (no page, or no proof of control). */
  backends: BackendEvidence | null;
  /** CVE-2025-29927 probes; null unless the site is a Next.js app. */
  middleware: MiddlewareBypassEvidence | null;
  /** internet.nl's DNSSEC, IPv6, DANE and RPKI evidence; null when not gathered. */
  internetnl:
    | (InternetNlEvidence & {
        /**
         * Every address of the entered name that answers, each probed apart (its TLS, its first
         * answer over http, its HSTS): internet.nl judges each and keeps the worst (checks/models.py).
         */
        byAddress?: AddressEvidence[];
      })
    | null;
  /** internet.nl's mail test on the site's mail domain (its DNS part; SMTP comes after the scan); null when off. */
  mail: MailRun | null;
  /** Library and Next.js versions the page's scripts show, and the data they are judged by; null when not gathered. */
  libraries: LibraryEvidence | null;
  /** WordPress core, plugin and theme versions, and the data they are judged by; null unless the site is WordPress. */
  wordpress: (WordPressEvidence & { data: VulnerabilityDataInUse }) | null;
}

export interface LibraryEvidence {
  sightings: Sighting[];
  /** Next.js's context as GET requests show it; null when the page is no Next.js app. */
  nextjs: NextjsContext | null;
  /** Same-site scripts not read whole: what they hold was not judged. */
  unread: ClientCodeEvidence['unread'];
  data: VulnerabilityDataInUse;
}

/** What a pure check reports; the catalog supplies the rest of the finding. */
export interface Observation {
  type: FindingType;
  endpoint: string;
  actual_value: string | null;
}

/** A finding as the scanner reports it: the catalog's texts plus what was observed. */
export type ScanFinding = { finding_type: FindingType } & Omit<CatalogEntry, 'observatory' | 'ncsc'> &
  Omit<Observation, 'type'> & {
    /** The pages where a per-page test saw it, in crawl order (at most 20); absent for what is judged once. */
    affected_urls?: string[];
    /** How many pages show it; absent for what is judged once. */
    affected_count?: number;
  };

/** What the SMTP part found at one address of an MX host. */
export interface SmtpAddressResult {
  address: string;
  /** starttls: offered and the TLS handshake worked; no_starttls: EHLO did not offer it. */
  state: 'starttls' | 'no_starttls' | 'not_tested';
  reason: string | null;
  /** What the TLS test's checks report on the STARTTLS connection (versions, suites, certificate). */
  failing: FindingType[];
  /** A TLSA record at _25._tcp.<mx> (usage 2 or 3, AD-secure) matches the chain; null without records. */
  dane: boolean | null;
  /** The server offers 0-RTT early data; null when not tried. */
  zeroRtt: boolean | null;
}

export interface SmtpHostResult {
  host: string;
  testedAt: string;
  addresses: SmtpAddressResult[];
}

/**
 * The mail test of one scan as stored: what DNS said, and the SMTP part, which may arrive after the
 * scan (a background job) or come from the shared cache. The report is computed from this on read.
 */
export interface MailRun {
  domain: string;
  status: MailStatus;
  reason: string | null;
  evidence: MailEvidence | null;
  smtp: {
    state: SmtpState;
    reason: string | null;
    hosts: SmtpHostResult[];
  };
}
