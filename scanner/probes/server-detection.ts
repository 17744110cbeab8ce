import { headerValues } from '../net/headers.ts';
import type { FetchedResponse, HeaderMap, ScanEvidence } from '../types.ts';
import type { WebServer } from '../vocabulary.ts';

/**
 * Which server answers, from what it says of itself: the Server header, Via, vendor headers
 * (Cloudflare's cf-ray, Vercel's x-vercel-id, Netlify's x-nf-request-id, LiteSpeed's cache
 * headers), and where those are hidden, the traits of its own not-found page. Edge platforms win over
 * the software behind them: their configuration is where a fix goes.
 */
const HEADER_SIGNS: Array<[WebServer, (headers: HeaderMap) => boolean]> = [
  ['cloudflare', (h) => has(h, 'cf-ray') || /^cloudflare/i.test(first(h, 'server'))],
  ['vercel', (h) => has(h, 'x-vercel-id') || /^vercel/i.test(first(h, 'server'))],
  ['netlify', (h) => has(h, 'x-nf-request-id') || /^netlify/i.test(first(h, 'server'))],
  [
    'nginx',
    (h) => /^nginx|^openresty/i.test(first(h, 'server')) || /\bnginx\b/i.test(headerValues(h, 'via').join(',')),
  ],
  ['apache', (h) => /^apache/i.test(first(h, 'server'))],
  ['caddy', (h) => /^caddy/i.test(first(h, 'server')) || /\bcaddy\b/i.test(headerValues(h, 'via').join(','))],
  ['iis', (h) => /^microsoft-iis/i.test(first(h, 'server')) || has(h, 'x-aspnet-version')],
  [
    'litespeed',
    (h) =>
      /^litespeed|^openlitespeed/i.test(first(h, 'server')) ||
      has(h, 'x-litespeed-cache') ||
      has(h, 'x-litespeed-cache-control'),
  ],
];

/** Default error pages, for servers told not to name themselves (server_tokens, ServerSignature). */
const PAGE_SIGNS: Array<[WebServer, RegExp]> = [
  ['nginx', /<hr><center>(nginx|openresty)(\/[\d.]+)?<\/center>/i],
  ['apache', /<address>Apache(\/[\d.]+)?[^<]* Server at |<p>The requested URL was not found on this server\.<\/p>/i],
  ['iis', /<h2>404 - File or directory not found\.<\/h2>|Microsoft-IIS/i],
  ['litespeed', /Proudly powered by\s+<a[^>]*litespeed/i],
];

function first(headers: HeaderMap, name: string): string {
  return headerValues(headers, name)[0]?.trim() ?? '';
}
function has(headers: HeaderMap, name: string): boolean {
  return headerValues(headers, name).length > 0;
}

function fromHeaders(headers: HeaderMap): WebServer | null {
  return HEADER_SIGNS.find(([, sign]) => sign(headers))?.[0] ?? null;
}

function fromPage(response: FetchedResponse): WebServer | null {
  const body = response.body.toString('latin1', 0, 4096);
  return PAGE_SIGNS.find(([, sign]) => sign.test(body))?.[0] ?? null;
}

export function detectServer(evidence: ScanEvidence): WebServer | null {
  const answers = [
    evidence.page?.headers,
    evidence.https?.headers,
    ...evidence.notFoundBaselines.map((b) => b.headers),
  ].filter((h): h is HeaderMap => h !== undefined);
  for (const headers of answers) {
    const server = fromHeaders(headers);
    if (server) return server;
  }
  for (const baseline of evidence.notFoundBaselines) {
    const server = fromPage(baseline);
    if (server) return server;
  }
  return null;
}
