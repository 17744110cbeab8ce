import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { bareHost, type AddressPolicy } from '../net/address-policy.ts';
import { decodeBody } from '../net/charset.ts';
import { isLocalhostName, lookupCaa } from '../net/dns.ts';
import { InvalidTargetError, refusalIn, TargetUnreachableError } from '../errors.ts';
import { DEFAULT_PROBE_BYTES, EXPOSURE_PROBES, ruleFor, type ExposureProbe } from './exposure-rules.ts';
import { firstHeader } from '../net/headers.ts';
import { isHtmlContentType, parseHtml, type HtmlFacts } from './html.ts';
import { HttpClient } from '../net/http-client.ts';
import { readClientCode, type ClientCodeOptions } from './client-code.ts';
import { probeMiddlewareBypass } from './nextjs-middleware.ts';
import { detectSitePlatform } from './site-platform.ts';
import { siteOf } from '../net/registrable-domain.ts';
import { probeTls } from '../net/tls-client.ts';
import { fetchAtAddress } from '../net/pinned-fetch.ts';
import { probeInternetNl } from './internetnl.ts';
import { parseWebUrl, WEB_URL_PROBLEMS } from '../net/web-url.ts';
import type {
  FetchedResponse,
  ProbeEvidence,
  RedirectHop,
  ScanEvidence,
  SecurityTxtEvidence,
  TlsEvidence,
} from '../types.ts';
import type { ScanStage } from '../vocabulary.ts';

export interface RetrieveOptions extends AddressPolicy, ClientCodeOptions {
  /** Told of a retrieval phase that failed (its checks become failed checks), with its error. */
  onPhaseFailure?: (phase: string, error: unknown) => void;
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
}

export interface InternetNlSettings {
  dnssecProbeName: string;
  nameServerPort?: number;
  rpkiValidatorUrl?: string;
  rpkiOriginUrl?: string;
}

/** Browsers give up after 20 redirects (Chromium and Firefox alike); so does the scanner. */
export const MAX_REDIRECTS = 20;
export const PAGE_BYTES = 512 * 1024;
const MAX_SOURCE_MAP_PROBES = 3;
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

async function followChain(
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

async function mapBounded<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function sourceMapProbes(page: FetchedResponse, facts: HtmlFacts | null): ExposureProbe[] {
  if (!facts) return [];
  const origin = new URL(page.url).origin;
  const scripts: URL[] = [];
  for (const script of facts.scripts) {
    try {
      scripts.push(new URL(script.src, page.url));
    } catch {
      // An unparsable src is the page's problem, not a probe.
    }
  }
  return scripts
    .filter((url) => url.origin === origin && url.pathname.endsWith('.js'))
    .slice(0, MAX_SOURCE_MAP_PROBES)
    .map((url) => ({ path: `${url.pathname}.map`, type: 'exposed_source_map' }));
}

/** The same host and port under another path or scheme, built with the URL API (IPv6 literals stay intact). */
function sameHost(base: URL, protocol: 'http:' | 'https:', path = '/'): URL {
  const url = new URL(path, base);
  if (url.protocol !== protocol) {
    url.protocol = protocol;
    url.port = '';
  }
  return url;
}

/**
 * Random paths in the shapes the probes have (a file, a dotfile, a folder): servers often answer
 * each shape with its own not-found page, and a probe is only compared with those.
 */
const notFoundPaths = () => {
  const token = randomBytes(8).toString('hex');
  return [`/${token}-niet-gevonden.txt`, `/.${token}`, `/${token}/`];
};

/**
 * Probes run on the page's origin when the target redirected within its own site (http to https,
 * apex to www), and on the target's own origin when it redirected elsewhere: another party's
 * host is never probed.
 */
async function probeExposures(
  client: HttpClient,
  target: URL,
  page: FetchedResponse,
  facts: HtmlFacts | null,
  options: RetrieveOptions,
) {
  const pageUrl = new URL(page.url);
  const ownSite = siteOf(pageUrl.hostname) === siteOf(target.hostname);
  const probeOrigin = (ownSite ? pageUrl : target).origin;
  // The baselines are only compared after all answers are in, so they share the probes' pool.
  const baselines = Promise.all(
    notFoundPaths().map((path) => client.fetch(new URL(path, probeOrigin).href, { maxBytes: DEFAULT_PROBE_BYTES })),
  );
  const probes = [...EXPOSURE_PROBES, ...(ownSite ? sourceMapProbes(page, facts) : [])];
  const probing = mapBounded(probes, options.concurrency, async (probe): Promise<ProbeEvidence> => {
    const url = new URL(probe.path, probeOrigin).href;
    const response = await client.fetch(url, {
      method: probe.method,
      body: probe.body,
      headers: probe.body ? { 'content-type': 'application/json' } : undefined,
      maxBytes: ruleFor(probe.type).maxBytes ?? DEFAULT_PROBE_BYTES,
    });
    return { type: probe.type, url, response };
  });
  const [answered, probeEvidence] = await Promise.all([baselines, probing]);
  return { notFoundBaselines: answered.filter((b): b is FetchedResponse => b !== null), probeEvidence };
}

/** A security.txt is a few KiB; a larger answer is judged from its start. */
const SECURITY_TXT_BYTES = 32 * 1024;

/** RFC 9116 section 3: the file at /.well-known/ on the HTTPS origin, and the legacy top-level path (redirects followed). */
async function fetchSecurityTxt(client: HttpClient, httpsOrigin: string): Promise<SecurityTxtEvidence> {
  const wellKnownUrl = new URL('/.well-known/security.txt', httpsOrigin).href;
  const legacyUrl = new URL('/security.txt', httpsOrigin).href;
  const [wellKnown, legacy] = await Promise.all([
    followChain(client, wellKnownUrl, {}, SECURITY_TXT_BYTES),
    followChain(client, legacyUrl, {}, SECURITY_TXT_BYTES),
  ]);
  return { wellKnownUrl, legacyUrl, wellKnown: wellKnown.final, legacy: legacy.final };
}

/** CAA is looked up for host names; an IP address or localhost has no domain to publish it. */
function caaLookup(target: URL, options: RetrieveOptions): Promise<ScanEvidence['caa']> {
  const host = bareHost(target.hostname);
  if (net.isIP(host) || isLocalhostName(host)) return Promise.resolve(null);
  const domain = siteOf(host);
  return lookupCaa(host, domain, options).then(
    (caa) => (caa ? { ...caa, host, domain } : null),
    () => null,
  );
}

/**
 * A phase that failed costs its own findings only; undefined tells the caller it failed (the scan
 * lists its checks in failed_checks). A refused address still ends the scan as it would anywhere.
 */
async function failureAsUndefined<T>(
  name: string,
  phase: Promise<T>,
  report?: (phase: string, error: unknown) => void,
): Promise<T | undefined> {
  try {
    return await phase;
  } catch (error) {
    const refusal = refusalIn(error);
    if (refusal) throw refusal;
    report?.(name, error);
    return undefined;
  }
}

/** All network I/O of a scan: the page and its variants, TLS handshakes and exposure probes. */
export async function retrieve(
  target: URL,
  options: RetrieveOptions,
): Promise<{ evidence: ScanEvidence; requests: number }> {
  const progress = options.onProgress ?? (() => {});
  const client = new HttpClient({ ...options, maxSocketsPerHost: options.concurrency });
  let handshakes = 0;
  // DNS runs beside the HTTP and TLS work; it has its own time-outs.
  const caa = caaLookup(target, options);
  try {
    const scannedAt = new Date();
    const pageHeaders = { origin: CORS_TEST_ORIGIN };
    progress('page');
    const [main, plain] = await Promise.all([
      followChain(client, target.href, pageHeaders),
      target.protocol === 'https:'
        ? followChain(client, sameHost(target, 'http:').href, {})
        : Promise.resolve(NO_CHAIN),
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
    handshakes += probed.handshakes;
    const tlsWorks = Object.values(tls.protocols).some(Boolean);
    const verified = tls.certificate !== null && tls.certificate.chainError === null && tls.certificate.hostnameMatches;

    let httpsResponse = finalUrl.protocol === 'https:' && ownFinal ? main.final : null;
    if (!httpsResponse && tlsWorks)
      httpsResponse = (await followChain(client, new URL('/', httpsUrl).href, pageHeaders)).final;

    const pageResponse = main.final ?? httpsResponse;
    if (!pageResponse && main.tooManyRedirects) {
      throw new TargetUnreachableError(
        `De site ${target.host} blijft doorverwijzen (meer dan ${MAX_REDIRECTS} doorverwijzingen); er is geen pagina om te beoordelen.`,
      );
    }
    if (!pageResponse) throw new TargetUnreachableError(`De site ${target.host} is niet bereikbaar via HTTP of HTTPS.`);
    const contentType = firstHeader(pageResponse.headers, 'content-type');
    const html = isHtmlContentType(contentType) ? decodeBody(pageResponse.body, contentType) : null;
    const facts = html !== null ? parseHtml(html) : null;
    progress('probes');
    const page = {
      url: pageResponse.url,
      status: pageResponse.status,
      headers: pageResponse.headers,
      html,
      requestOrigin: CORS_TEST_ORIGIN,
    };

    const internetnl = options.internetnl;
    const [{ notFoundBaselines, probeEvidence }, securityTxt, clientCode, middleware, internetnlEvidence] =
      await Promise.all([
        options.probeExposures
          ? probeExposures(client, target, pageResponse, facts, options)
          : { notFoundBaselines: [], probeEvidence: [] },
        tlsWorks ? fetchSecurityTxt(client, httpsUrl.origin) : null,
        facts
          ? failureAsUndefined(
              'client_code',
              readClientCode(client, pageResponse.url, facts, options),
              options.onPhaseFailure,
            )
          : null,
        facts && detectSitePlatform(page, facts) === 'nextjs'
          ? failureAsUndefined(
              'nextjs_middleware',
              probeMiddlewareBypass(client, pageResponse.url, facts),
              options.onPhaseFailure,
            )
          : null,
        internetnl
          ? failureAsUndefined(
              'internetnl',
              probeInternetNl(
                httpsUrl.hostname,
                {
                  ...options,
                  ...internetnl,
                  scheme: tlsWorks ? 'https' : 'http',
                  port: Number(tlsWorks ? httpsUrl.port || 443 : target.port || 80),
                  chain: tls.certificate?.presented ?? [],
                  timeoutMs: Math.min(3_000, options.requestTimeoutMs),
                },
                (address) =>
                  fetchAtAddress(tlsWorks ? new URL('/', httpsUrl).href : target.href, address, {
                    ...options,
                    timeoutMs: options.requestTimeoutMs,
                  }),
              ),
              options.onPhaseFailure,
            )
          : null,
      ]);

    const evidence: ScanEvidence = {
      target: target.href,
      scannedAt,
      page,
      https: httpsResponse && tlsWorks ? { verified, headers: httpsResponse.headers } : null,
      httpRedirects: target.protocol === 'http:' ? main.hops : plain.hops,
      tls,
      securityTxt,
      caa: await caa,
      notFoundBaselines,
      probes: probeEvidence,
      clientCode: clientCode ?? null,
      middleware: middleware ?? null,
      internetnl: internetnlEvidence ?? null,
      failedPhases: [
        ...(clientCode === undefined ? (['client_code'] as const) : []),
        ...(middleware === undefined ? (['nextjs_middleware'] as const) : []),
        ...(internetnlEvidence === undefined ? (['internetnl'] as const) : []),
      ],
    };
    return { evidence, requests: client.requestCount + handshakes };
  } finally {
    client.close();
  }
}
