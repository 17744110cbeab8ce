import { toHeaderMap } from './headers.ts';
import { CORS_TEST_ORIGIN } from '../../scanner/retriever.ts';
import type { ExposureType } from '../../scanner/exposure-rules.ts';
import type { FetchedResponse, ScanEvidence } from '../../scanner/types.ts';
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
  probes?: Array<{ type: ExposureType; path: string; response: Partial<FetchedResponse> & { text?: string } }>;
  baseline?: Partial<FetchedResponse> & { text?: string };
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

function response(url: string, r: Partial<FetchedResponse> & { text?: string }): FetchedResponse {
  return { url, status: r.status ?? 200, headers: r.headers ?? { 'content-type': ['text/plain'] }, body: r.body ?? Buffer.from(r.text ?? '') };
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
      html: o.html === undefined ? '<!doctype html><html><head><script src="/app.js"></script></head><body></body></html>' : o.html,
      requestOrigin: CORS_TEST_ORIGIN,
    },
    https: o.https === false ? null : { verified: o.verified ?? true, headers: o.httpsHeaders ? merge(HARDENED_HEADERS, o.httpsHeaders) : headers },
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
            ciphers: { weak: [], forwardSecrecy: true, aead: true },
            certificate: {
              subject: 'CN=example.nl',
              issuer: 'CN=Test CA',
              validFrom: new Date(now.getTime() - 30 * DAY).toISOString(),
              validTo: new Date(now.getTime() + 300 * DAY).toISOString(),
              chainError: null,
              hostnameMatches: true,
              selfSigned: false,
              hasSubjectAltName: true,
              chain: [{ subject: 'CN=example.nl', keyType: 'ec', keyBits: 256, signatureAlgorithm: 'sha256WithRSAEncryption' }],
              ...o.certificate,
            },
            ...o.tls,
          },
    notFoundBaselines: [o.baseline ? response(`${origin}/random-404`, o.baseline) : response(`${origin}/random-404`, { status: 404 })],
    probes: (o.probes ?? []).map((p) => ({ type: p.type, url: `${origin}${p.path}`, response: response(`${origin}${p.path}`, p.response) })),
  };
}
