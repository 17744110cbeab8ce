import type { ProofOfControl } from '../checks/proof-of-control.ts';
import { decodeBody } from '../net/charset.ts';
import { firstHeader } from '../net/headers.ts';
import { isHtmlContentType, parseHtml, type HtmlFacts } from './html.ts';
import type { AddressPolicy } from '../net/address-policy.ts';
import type { FetchFailure, HttpClient } from '../net/http-client.ts';
import type { ClientCodeOptions } from './client-code.ts';
import { siteOf } from '../net/registrable-domain.ts';
import { probeTls } from '../net/tls-client.ts';
import { parseWebUrl, WEB_URL_PROBLEMS } from '../net/web-url.ts';
import { InvalidTargetError } from '../errors.ts';
import type { FetchedResponse, HttpsEvidence, PageEvidence, RedirectHop, TlsEvidence } from '../types.ts';
import type { ScanStage } from '../vocabulary.ts';
import type { VulnerabilityDataInUse } from '../vulndata/dataset.ts';

export interface RetrieveOptions extends AddressPolicy, ClientCodeOptions {
  requestTimeoutMs: number;
  /** Requests in flight at once against the probed host. */
  concurrency: number;
  signal: AbortSignal;
  /** Run the exposed-endpoint probes (feature flag exposure_probes). */
  probeExposures: boolean;
  /** Told when a stage starts (no site text: the stage's name only). */
  onProgress?: (stage: ScanStage) => void;
  /** internet.nl's DNSSEC, IPv6, DANE and RPKI tests; left out when absent. */
  internetnl?: InternetNlSettings;
  /** The vulnerability data versions are judged by, with its age; without it the component tests fail. */
  vulnerabilityData?: VulnerabilityDataInUse;
  /** internet.nl's mail test; left out when absent. */
  mail?: MailSettings;
  /** The hosts intrusive tests may reach (scanner/control.ts); absent for the operator's own scans. */
  control?: ProofOfControl;
}

export interface MailSettings {
  /** The domain to test; undefined: the site's registrable domain; null: the test is off for this site. */
  domain?: string | null;
  /** The SMTP part runs after the scan (SCANNER_SMTP): the scan marks it pending. */
  smtp: boolean;
  dnssecProbeName: string;
  nameServerPort?: number;
  /** Where https://mta-sts.<domain>/ is fetched; only an offline lab moves it. */
  httpsPort?: number;
  rpkiValidatorUrl?: string;
  rpkiOriginUrl?: string;
}

export interface InternetNlSettings {
  dnssecProbeName: string;
  nameServerPort?: number;
  /** Where internet.nl's IPv6 test connects for ports 80 and 443; only an offline lab moves them. */
  webPorts?: { http?: number; https?: number };
  rpkiValidatorUrl?: string;
  rpkiOriginUrl?: string;
}

/** Browsers give up after 20 redirects (Chromium and Firefox alike); so does the scanner. */
export const MAX_REDIRECTS = 20;
export const PAGE_BYTES = 512 * 1024;
/** A foreign origin sent with the page request: a server that echoes it back reflects any origin. */
export const CORS_TEST_ORIGIN = 'https://cors-check.scanner.invalid';

interface Chain {
  hops: RedirectHop[];
  final: FetchedResponse | null;
  /** The chain ended because it exceeded MAX_REDIRECTS (a loop or an endless chain). */
  tooManyRedirects: boolean;
}

const NO_CHAIN: Chain = { hops: [], final: null, tooManyRedirects: false };

export function parseTarget(raw: string): URL {
  const { url, problem } = parseWebUrl(raw);
  if (problem)
    throw new InvalidTargetError(
      `Kan ${raw.slice(0, 200)} niet scannen: ${WEB_URL_PROBLEMS[problem](['http:', 'https:'])}`,
    );
  return url;
}

/** The URL a redirect points to, or null when Location is missing, unparsable or not http(s). */
function redirectTarget(response: FetchedResponse, from: string): string | null {
  const location = firstHeader(response.headers, 'location');
  if (response.status < 300 || response.status >= 400 || !location) return null;
  try {
    const next = new URL(location.trim(), from);
    return next.protocol === 'http:' || next.protocol === 'https:' ? next.href : null;
  } catch {
    return null;
  }
}

/** The same host and port under another path or scheme, built with the URL API (IPv6 literals stay intact). */
export function sameHost(base: URL, protocol: 'http:' | 'https:', path = '/'): URL {
  const url = new URL(path, base);
  if (url.protocol !== protocol) {
    url.protocol = protocol;
    url.port = '';
  }
  return url;
}

export async function followChain(
  client: HttpClient,
  start: string,
  headers: Record<string, string>,
  maxBytes = PAGE_BYTES,
): Promise<Chain> {
  const hops: RedirectHop[] = [];
  let url = start;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const response = await client.fetch(url, { headers, maxBytes });
    if (!response) return { hops, final: null, tooManyRedirects: false };
    hops.push({ url, status: response.status });
    const next = redirectTarget(response, url);
    if (!next) return { hops, final: response, tooManyRedirects: false };
    url = next;
  }
  return { hops, final: null, tooManyRedirects: true };
}

/** What reaching the site gathered: the page, its redirects, TLS on its HTTPS origin. Every test starts here. */
export interface SiteContact {
  target: URL;
  scannedAt: Date;
  page: PageEvidence | null;
  /** The page's full answer (its body too) and its parsed HTML. */
  pageResponse: FetchedResponse | null;
  facts: HtmlFacts | null;
  https: HttpsEvidence | null;
  httpRedirects: RedirectHop[];
  /** Why the http:// variant gave no answer; undefined when it answered. */
  plainFailure: FetchFailure | undefined;
  tls: TlsEvidence;
  tlsWorks: boolean;
  /** The TLS probe was cut short by the scan's deadline. */
  tlsCut: boolean;
  /** The HTTPS URL of the target's own site: the final page's when it is https on that site. */
  httpsUrl: URL;
  /** Why there is no page: the site did not answer over HTTP or HTTPS, or kept redirecting. */
  unreachable: string | null;
  /** TLS handshakes made (the HTTP client counts its own requests). */
  handshakes: number;
}

/** Fetches the page over http(s) (redirects followed) and probes TLS on the site's HTTPS origin. */
export async function reachSite(target: URL, client: HttpClient, options: RetrieveOptions): Promise<SiteContact> {
  const progress = options.onProgress ?? (() => {});
  const scannedAt = new Date();
  const pageHeaders = { origin: CORS_TEST_ORIGIN };
  progress('page');
  const plainUrl = target.protocol === 'https:' ? sameHost(target, 'http:').href : target.href;
  const [main, plain] = await Promise.all([
    followChain(client, target.href, pageHeaders),
    target.protocol === 'https:' ? followChain(client, plainUrl, {}) : Promise.resolve(NO_CHAIN),
  ]);

  const finalUrl = main.final ? new URL(main.final.url) : target;
  // The TLS verdict is about the target's own site; a redirect to another party's host is not judged.
  const ownFinal = siteOf(finalUrl.hostname) === siteOf(target.hostname);
  const ownHttps = target.protocol === 'https:' ? target : sameHost(target, 'https:');
  const httpsUrl = finalUrl.protocol === 'https:' && ownFinal ? finalUrl : ownHttps;
  progress('tls');
  const probed = await probeTls(httpsUrl.hostname, Number(httpsUrl.port || 443), {
    ...options,
    timeoutMs: Math.min(5_000, options.requestTimeoutMs),
  });
  const tls: TlsEvidence = probed.tls;
  const tlsWorks = Object.values(tls.protocols).some(Boolean);
  const verified = tls.certificate !== null && tls.certificate.chainError === null && tls.certificate.hostnameMatches;

  let httpsResponse = finalUrl.protocol === 'https:' && ownFinal ? main.final : null;
  if (!httpsResponse && tlsWorks)
    httpsResponse = (await followChain(client, new URL('/', httpsUrl).href, pageHeaders)).final;

  const pageResponse = main.final ?? httpsResponse;
  const unreachable = pageResponse
    ? null
    : main.tooManyRedirects
      ? `De site ${target.host} blijft doorverwijzen (meer dan ${MAX_REDIRECTS} doorverwijzingen); er is geen pagina om te beoordelen.`
      : `De site ${target.host} is niet bereikbaar via HTTP of HTTPS.`;
  const contentType = pageResponse ? firstHeader(pageResponse.headers, 'content-type') : null;
  const html = pageResponse && isHtmlContentType(contentType) ? decodeBody(pageResponse.body, contentType) : null;
  return {
    target,
    scannedAt,
    page: pageResponse && {
      url: pageResponse.url,
      status: pageResponse.status,
      headers: pageResponse.headers,
      html,
      requestOrigin: CORS_TEST_ORIGIN,
    },
    pageResponse,
    facts: html !== null ? parseHtml(html) : null,
    https: httpsResponse && tlsWorks ? { verified, headers: httpsResponse.headers } : null,
    httpRedirects: target.protocol === 'http:' ? main.hops : plain.hops,
    plainFailure: client.failureOf(plainUrl),
    tls,
    tlsWorks,
    tlsCut: options.signal.aborted && !tlsWorks,
    httpsUrl,
    unreachable,
    handshakes: probed.handshakes,
  };
}
