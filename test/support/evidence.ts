import { toHeaderMap } from './headers.ts';
import { CORS_TEST_ORIGIN } from '../../scanner/probes/retriever.ts';
import type { ExposureType } from '../../scanner/probes/exposure-rules.ts';
import type { CipherEvidence, FetchedResponse, ScanEvidence, TlsFeatureEvidence } from '../../scanner/types.ts';
import { HARDENED_HEADERS } from './sites.ts';

export interface EvidenceOverrides {
  url?: string;
  /** Page headers; null values remove a hardened default. */
  headers?: Record<string, string | string[] | null>;
  html?: string | null;
  httpsHeaders?: Record<string, string | string[] | null>;
  verified?: boolean;
  https?: false;
  httpRedirects?: ScanEvidence['httpRedirects'];
  tls?: Partial<NonNullable<ScanEvidence['tls']>> | null;
  certificate?: Partial<NonNullable<NonNullable<ScanEvidence['tls']>['certificate']>>;
  /** The DANE part of internet.nl's evidence (the rest is left out). */
  dane?: NonNullable<ScanEvidence['internetnl']>['dane'];
  probes?: Array<{ type: ExposureType; path: string; response: Partial<FetchedResponse> & { text?: string } }>;
  baseline?: Partial<FetchedResponse> & { text?: string };
  /** The /.well-known/security.txt answer (null: none), and the legacy /security.txt one. */
  securityTxt?: (Partial<FetchedResponse> & { text?: string }) | null;
  legacySecurityTxt?: (Partial<FetchedResponse> & { text?: string }) | null;
  caa?: ScanEvidence['caa'];
  clientCode?: Partial<NonNullable<ScanEvidence['clientCode']>>;
  backends?: Partial<NonNullable<ScanEvidence['backends']>>;
  middleware?: ScanEvidence['middleware'];
  scannedAt?: Date;
}

function merge(base: Record<string, string | string[]>, changes: Record<string, string | string[] | null> = {}) {
  const merged: Record<string, string | string[]> = { ...base };
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) delete merged[name];
    else merged[name] = value;
  }
  return toHeaderMap(merged);
}

const DAY = 86_400_000;

/** A server's accepted TLS 1.2 suites (ECDHE on x25519 signed with RSA-PSS unless said), in its own order. */
export function cipherEvidence(
  codes: number[] = [0xc02f, 0xc030],
  changes: Partial<CipherEvidence> = {},
): CipherEvidence {
  return {
    accepted: codes.map((code) => ({ code, keyExchange: { kind: 'ecdhe', group: 0x001d, signatureScheme: 0x0804 } })),
    serverOrder: codes.length > 1 ? true : null,
    truncated: false,
    weakGroups: [],
    weakKeyExchangeSchemes: [],
    tls13InsufficientSuite: false,
    ...changes,
  };
}

export const HARDENED_FEATURES: TlsFeatureEvidence = {
  secureRenegotiation: true,
  extendedMasterSecret: true,
  compression: false,
  clientRenegotiation: false,
};

function response(url: string, r: Partial<FetchedResponse> & { text?: string }): FetchedResponse {
  return {
    url,
    status: r.status ?? 200,
    headers: r.headers ?? { 'content-type': ['text/plain'] },
    body: r.body ?? Buffer.from(r.text ?? ''),
  };
}

/** A valid security.txt that expires in half a year. */
export function securityTxtText(now: Date): string {
  return `Contact: mailto:security@example.nl\nExpires: ${new Date(now.getTime() + 180 * DAY).toISOString()}\nPreferred-Languages: nl, en\n`;
}

/** Evidence of a hardened HTTPS site, changed by the overrides: the starting point of check tests. */
export function evidence(o: EvidenceOverrides = {}): ScanEvidence {
  const url = o.url ?? 'https://example.nl/';
  const origin = new URL(url).origin;
  const now = o.scannedAt ?? new Date();
  const headers = merge(HARDENED_HEADERS, o.headers);
  return {
    target: url,
    scannedAt: now,
    page: {
      url,
      status: 200,
      headers,
      html:
        o.html === undefined
          ? '<!doctype html><html><head><script src="/app.js"></script></head><body></body></html>'
          : o.html,
      requestOrigin: CORS_TEST_ORIGIN,
    },
    https:
      o.https === false
        ? null
        : { verified: o.verified ?? true, headers: o.httpsHeaders ? merge(HARDENED_HEADERS, o.httpsHeaders) : headers },
    httpRedirects: o.httpRedirects ?? [
      { url: 'http://example.nl/', status: 301 },
      { url, status: 200 },
    ],
    tls:
      o.tls === null
        ? null
        : {
            host: new URL(url).hostname,
            port: 443,
            protocols: { TLSv1: false, 'TLSv1.1': false, 'TLSv1.2': true, 'TLSv1.3': true },
            ciphers: cipherEvidence(),
            features: HARDENED_FEATURES,
            certificate: {
              subject: 'CN=example.nl',
              issuer: 'CN=Test CA',
              validFrom: new Date(now.getTime() - 30 * DAY).toISOString(),
              validTo: new Date(now.getTime() + 300 * DAY).toISOString(),
              chainError: null,
              hostnameMatches: true,
              selfSigned: false,
              hasSubjectAltName: true,
              chain: [
                {
                  subject: 'CN=example.nl',
                  notAfter: new Date(Date.now() + 90 * 86_400_000).toISOString(),
                  keyType: 'ec',
                  keyBits: 256,
                  signatureAlgorithm: 'sha256WithRSAEncryption',
                },
              ],
              ...o.certificate,
            },
            ...o.tls,
          },
    securityTxt: {
      wellKnownUrl: `${origin}/.well-known/security.txt`,
      legacyUrl: `${origin}/security.txt`,
      wellKnown:
        o.securityTxt === null
          ? null
          : response(`${origin}/.well-known/security.txt`, {
              headers: { 'content-type': ['text/plain; charset=utf-8'] },
              text: securityTxtText(now),
              ...o.securityTxt,
            }),
      legacy: o.legacySecurityTxt
        ? response(`${origin}/security.txt`, {
            headers: { 'content-type': ['text/plain; charset=utf-8'] },
            ...o.legacySecurityTxt,
          })
        : null,
    },
    caa:
      o.caa === undefined
        ? {
            host: new URL(url).hostname,
            domain: new URL(url).hostname,
            foundAt: new URL(url).hostname,
            records: ['0 issue "letsencrypt.org"'],
          }
        : o.caa,
    notFoundBaselines: [
      o.baseline ? response(`${origin}/random-404`, o.baseline) : response(`${origin}/random-404`, { status: 404 }),
    ],
    probes: (o.probes ?? []).map((p) => ({
      type: p.type,
      url: `${origin}${p.path}`,
      response: response(`${origin}${p.path}`, p.response),
    })),
    clientCode: {
      secrets: [],
      references: [],
      components: [],
      unread: [],
      ...o.clientCode,
    },
    backends: { supabase: [], firebaseDatabases: [], firebaseStorage: [], ...o.backends },
    middleware: o.middleware ?? null,
    internetnl: o.dane
      ? {
          host: new URL(url).hostname,
          dnssec: { state: 'secure', reason: null, extendedError: null },
          ipv6: {
            nameServers: null,
            webAddresses: [],
            web: { v6Good: [], v6Bad: [], v4Good: [], v4Bad: [], portDiff: [] },
            sameContent: null,
            error: null,
          },
          dane: o.dane,
          rpki: { state: 'not_tested', reason: '' },
        }
      : null,
    mail: null,
    libraries: null,
    wordpress: null,
  };
}
