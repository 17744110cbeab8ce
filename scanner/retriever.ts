import { randomBytes } from 'node:crypto';
import { getDomain } from 'tldts';
import type { AddressPolicy } from './address-policy.ts';
import { InvalidTargetError, TargetUnreachableError } from './errors.ts';
import { EXPOSURE_PROBES, type ExposureProbe } from './exposure-rules.ts';
import { firstHeader } from './headers.ts';
import { isHtmlContentType, parseHtml } from './html.ts';
import { HttpClient } from './http-client.ts';
import { probeTls } from './tls-client.ts';
import type { FetchedResponse, ProbeEvidence, RedirectHop, ScanEvidence, TlsEvidence } from './types.ts';

export interface RetrieveOptions extends AddressPolicy {
  requestTimeoutMs: number;
  /** Requests in flight at once against the probed host. */
  concurrency: number;
  signal: AbortSignal;
  /** Run the exposed-endpoint probes (feature flag exposure_probes). */
  probeExposures: boolean;
  onProgress?: (message: string) => void;
}

const MAX_REDIRECTS = 5;
const PAGE_BYTES = 512 * 1024;
const PROBE_BYTES = 16 * 1024;
const MAX_SOURCE_MAP_PROBES = 3;
/** A foreign origin sent with the page request: a server that echoes it back reflects any origin. */
export const CORS_TEST_ORIGIN = 'https://cors-check.scanner.invalid';

interface Chain {
  hops: RedirectHop[];
  final: FetchedResponse | null;
}

export function parseTarget(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidTargetError(`Ongeldige URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidTargetError('Alleen http:// en https:// URL\'s kunnen worden gescand.');
  if (url.username || url.password) throw new InvalidTargetError('Een URL met inloggegevens kan niet worden gescand.');
  return url;
}

async function followChain(client: HttpClient, start: string, headers: Record<string, string>): Promise<Chain> {
  const hops: RedirectHop[] = [];
  let url = start;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const response = await client.fetch(url, { headers, maxBytes: PAGE_BYTES });
    if (!response) return { hops, final: null };
    hops.push({ url, status: response.status });
    const location = firstHeader(response.headers, 'location');
    if (response.status < 300 || response.status >= 400 || !location) return { hops, final: response };
    const next = new URL(location, url);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') return { hops, final: response };
    url = next.href;
  }
  return { hops, final: null };
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

function sourceMapProbes(page: FetchedResponse, html: string | null): ExposureProbe[] {
  if (!html) return [];
  const origin = new URL(page.url).origin;
  return parseHtml(html)
    .scripts.map((script) => new URL(script.src, page.url))
    .filter((url) => url.origin === origin && url.pathname.endsWith('.js'))
    .slice(0, MAX_SOURCE_MAP_PROBES)
    .map((url) => ({ path: `${url.pathname}.map`, type: 'exposed_source_map' }));
}

const originOf = (url: URL) => `${url.protocol}//${url.host}`;

const siteOf = (hostname: string) => getDomain(hostname, { allowPrivateDomains: true }) ?? hostname;

/**
 * Probes run on the page's origin when the target redirected within its own site (http to https,
 * apex to www), and on the target's own origin when it redirected elsewhere: another party's
 * host is never probed.
 */
async function probeExposures(client: HttpClient, target: URL, page: FetchedResponse, html: string | null, options: RetrieveOptions) {
  const pageUrl = new URL(page.url);
  const ownSite = siteOf(pageUrl.hostname) === siteOf(target.hostname);
  const probeOrigin = originOf(ownSite ? pageUrl : target);
  options.onProgress?.(`Blootgestelde bestanden controleren op ${probeOrigin}`);
  const notFoundBaseline = await client.fetch(`${probeOrigin}/${randomBytes(8).toString('hex')}-niet-gevonden.txt`, { maxBytes: PROBE_BYTES });
  const probes = [...EXPOSURE_PROBES, ...(ownSite ? sourceMapProbes(page, html) : [])];
  const probeEvidence = await mapBounded(probes, options.concurrency, async (probe): Promise<ProbeEvidence> => {
    const url = `${probeOrigin}${probe.path}`;
    const response = await client.fetch(url, {
      method: probe.method,
      body: probe.body,
      headers: probe.body ? { 'content-type': 'application/json' } : undefined,
      maxBytes: PROBE_BYTES,
    });
    return { type: probe.type, url, response };
  });
  return { notFoundBaseline, probeEvidence };
}

/** All network I/O of a scan: the page and its variants, TLS handshakes and exposure probes. */
export async function retrieve(target: URL, options: RetrieveOptions): Promise<{ evidence: ScanEvidence; requests: number }> {
  const progress = options.onProgress ?? (() => {});
  const client = new HttpClient({ ...options, maxSocketsPerHost: options.concurrency });
  let handshakes = 0;
  try {
    const scannedAt = new Date();
    const pageHeaders = { origin: CORS_TEST_ORIGIN };
    progress(`Pagina ophalen: ${target.href}`);
    const plainVariant = target.protocol === 'https:' ? `http://${target.hostname.includes(':') ? `[${target.hostname}]` : target.hostname}/` : null;
    const [main, plain] = await Promise.all([
      followChain(client, target.href, pageHeaders),
      plainVariant ? followChain(client, plainVariant, {}) : Promise.resolve<Chain>({ hops: [], final: null }),
    ]);

    const finalUrl = main.final ? new URL(main.final.url) : target;
    // The TLS verdict is about the target's own site; a redirect to another party's host is not judged.
    const ownFinal = siteOf(finalUrl.hostname) === siteOf(target.hostname);
    const ownHttps = target.protocol === 'https:' ? target : new URL(`https://${target.hostname}/`);
    const httpsUrl = finalUrl.protocol === 'https:' && ownFinal ? finalUrl : ownHttps;
    progress(`TLS-handshakes met ${httpsUrl.host}`);
    const tls: TlsEvidence = await probeTls(httpsUrl.hostname, Number(httpsUrl.port || 443), {
      ...options,
      timeoutMs: Math.min(5_000, options.requestTimeoutMs),
    });
    handshakes += 4;
    const tlsWorks = Object.values(tls.protocols).some(Boolean);
    const verified = tls.certificate !== null && tls.certificate.chainError === null && tls.certificate.hostnameMatches;

    let httpsResponse = finalUrl.protocol === 'https:' && ownFinal ? main.final : null;
    if (!httpsResponse && tlsWorks) httpsResponse = (await followChain(client, `${originOf(httpsUrl)}/`, pageHeaders)).final;

    const pageResponse = main.final ?? httpsResponse;
    if (!pageResponse) throw new TargetUnreachableError(`De site ${target.host} is niet bereikbaar via HTTP of HTTPS.`);
    const contentType = firstHeader(pageResponse.headers, 'content-type');
    const html = isHtmlContentType(contentType) ? pageResponse.body.toString('utf8') : null;

    const { notFoundBaseline, probeEvidence } = options.probeExposures
      ? await probeExposures(client, target, pageResponse, html, options)
      : { notFoundBaseline: null, probeEvidence: [] };

    const evidence: ScanEvidence = {
      target: target.href,
      scannedAt,
      page: { url: pageResponse.url, status: pageResponse.status, headers: pageResponse.headers, html, requestOrigin: CORS_TEST_ORIGIN },
      https: httpsResponse && tlsWorks ? { verified, headers: httpsResponse.headers } : null,
      httpRedirects: target.protocol === 'http:' ? main.hops : plain.hops,
      tls,
      notFoundBaseline,
      probes: probeEvidence,
    };
    return { evidence, requests: client.requestCount + handshakes };
  } finally {
    client.close();
  }
}
