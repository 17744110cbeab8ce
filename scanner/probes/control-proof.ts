import { Parser } from 'htmlparser2';
import { refusalIn } from '../errors.ts';
import { decodeBody } from '../net/charset.ts';
import { hostKey, type AddressPolicy } from '../net/address-policy.ts';
import { DnsError, queryDns, serversOf, txtOf } from '../net/dns-client.ts';
import { firstHeader, headerValues } from '../net/headers.ts';
import { HttpClient } from '../net/http-client.ts';
import type { FetchedResponse } from '../net/http-evidence.ts';
import { siteOf } from '../net/registrable-domain.ts';
import { isIP } from 'node:net';
import type { ControlMethod, ProofOutcome } from '../vocabulary.ts';
import { isHtmlContentType, looksLikeHtml } from './html.ts';

/**
 * Where a tenant publishes its token, one place per method (docs/security.md): an underscore label
 * (RFC 8552) holding a TXT record, a file under /.well-known/ (RFC 8615) whose body holds the token
 * on a line of its own, and a meta tag in the head of the served HTML of `/`. The token is never
 * part of a URL, so a catch-all page that echoes its path proves nothing.
 */
export const PROOF_PLACES = {
  dnsLabel: '_website-security-scanner',
  txtPrefix: 'website-security-scanner-verification=',
  filePath: '/.well-known/website-security-scanner-verification.txt',
  metaName: 'website-security-scanner-verification',
} as const;

const LIMITS = { fileBytes: 4096, pageBytes: 512 * 1024, redirects: 5 } as const;

export interface ProofCheck {
  method: ControlMethod;
  /** The name the outcome speaks for: with DNS, the name whose label holds the record (it covers the names below). */
  name: string;
  outcome: ProofOutcome;
  /** Why, in Dutch: what an owner needs to fix it. */
  reason: string;
}

export interface ProofSettings extends AddressPolicy {
  requestTimeoutMs: number;
  signal?: AbortSignal;
}

/** What to publish for a host, as data: the record, the file and the tag. */
export function proofInstructions(origin: string, token: string) {
  const host = hostKey(new URL(origin).hostname);
  // A DNS record speaks for its name and every name below it: the site's own domain covers www and the rest.
  const domain = isIP(host) ? host : siteOf(host);
  return {
    dns: { name: `${PROOF_PLACES.dnsLabel}.${domain}`, value: `${PROOF_PLACES.txtPrefix}${token}` },
    file: { url: new URL(PROOF_PLACES.filePath, origin).href, body: `${token}\n` },
    meta: { tag: `<meta name="${PROOF_PLACES.metaName}" content="${token}">` },
  };
}

/** The names from a host up to its registrable domain: a record on any of them covers the host. */
function namesUp(host: string): string[] {
  const top = siteOf(host);
  const names = [host];
  let name = host;
  while (name !== top && name.includes('.')) {
    name = name.slice(name.indexOf('.') + 1);
    names.push(name);
  }
  return names;
}

/**
 * The TXT record at the underscore label of the host or a name above it, asked through the
 * scanner's own resolvers. NXDOMAIN or no matching record is absent; SERVFAIL (a bogus zone
 * included, from a validating resolver), REFUSED or no answer is unknown.
 */
export async function checkDnsProof(host: string, token: string, settings: ProofSettings): Promise<ProofCheck> {
  const asked = hostKey(host);
  if (isIP(asked))
    return {
      method: 'dns',
      name: asked,
      outcome: 'absent',
      reason: 'een IP-adres heeft geen DNS-naam: gebruik het bestand of de meta-tag',
    };
  const expected = `${PROOF_PLACES.txtPrefix}${token}`;
  const servers = serversOf(settings.dnsServers);
  let unknown: string | null = null;
  for (const name of namesUp(asked)) {
    const label = `${PROOF_PLACES.dnsLabel}.${name}`;
    try {
      const answer = await queryDns(label, 'TXT', { servers, signal: settings.signal, timeoutMs: 3_000 });
      if (answer.rcode === 'NOERROR') {
        if (answer.answers.some((a) => txtOf(a.data).trim() === expected))
          return { method: 'dns', name, outcome: 'present', reason: `TXT-record op ${label} gevonden` };
      } else if (answer.rcode !== 'NXDOMAIN') unknown ??= `de DNS-server antwoordde ${answer.rcode} op ${label}`;
    } catch (error) {
      if (!(error instanceof DnsError)) throw error;
      unknown ??= `geen antwoord van de DNS-server op ${label}`;
    }
  }
  if (unknown) return { method: 'dns', name: asked, outcome: 'unknown', reason: unknown };
  return {
    method: 'dns',
    name: asked,
    outcome: 'absent',
    reason: `geen TXT-record "${PROOF_PLACES.txtPrefix}…" met het token van dit account op ${PROOF_PLACES.dnsLabel}.${siteOf(asked)}`,
  };
}

type Fetched = { response: FetchedResponse } | { failed: ProofCheck['outcome']; reason: string };

/** A CDN's bot protection answers 403 to a scanner that a browser would pass: not the owner's answer. */
function cdnChallenge(response: FetchedResponse): boolean {
  const server = firstHeader(response.headers, 'server') ?? '';
  return (
    headerValues(response.headers, 'cf-mitigated').length > 0 ||
    headerValues(response.headers, 'cf-ray').length > 0 ||
    /cloudflare|akamai|sucuri|imperva|incapsula|cloudfront/i.test(server)
  );
}

/** A GET that follows redirects within the start URL's registrable domain, each hop through the address policy. */
async function fetchWithinSite(client: HttpClient, start: string, maxBytes: number): Promise<Fetched> {
  const site = siteOf(hostKey(new URL(start).hostname));
  let url = start;
  for (let hop = 0; hop <= LIMITS.redirects; hop++) {
    let response: FetchedResponse | null;
    try {
      response = await client.fetch(url, { maxBytes });
    } catch (error) {
      const refusal = refusalIn(error);
      if (!refusal) throw error;
      return { failed: 'absent', reason: `${new URL(url).host} is niet toegestaan: ${refusal.message}` };
    }
    if (!response) return { failed: 'unknown', reason: `geen antwoord van ${new URL(url).host}` };
    const location = firstHeader(response.headers, 'location');
    if (response.status < 300 || response.status >= 400 || !location) return { response };
    const next = URL.parse(location, url);
    if (!next || !['http:', 'https:'].includes(next.protocol) || siteOf(hostKey(next.hostname)) !== site)
      return {
        failed: 'absent',
        reason: `doorverwijzing buiten ${site} (${next?.host ?? 'ongeldig'}) wordt niet gevolgd`,
      };
    url = next.href;
  }
  return { failed: 'absent', reason: `meer dan ${LIMITS.redirects} doorverwijzingen` };
}

/** Why an answer other than 200 does not show the token: a CDN's challenge and a server error are unknown. */
function notServed(response: FetchedResponse, what: string): { outcome: ProofOutcome; reason: string } {
  const { status } = response;
  if (status === 403 && cdnChallenge(response))
    return { outcome: 'unknown', reason: '403 van de CDN (botbescherming): gebruik DNS' };
  if (status === 429 || status >= 500) return { outcome: 'unknown', reason: `${what}: HTTP ${status}` };
  return { outcome: 'absent', reason: `${what}: HTTP ${status}` };
}

/**
 * A method that reads one path of an origin (redirects within its registrable domain followed): no
 * answer, a refused address or a redirect elsewhere, then an answer other than 200, are judged alike;
 * `judge` reads a 200. The outcome speaks for the origin's host.
 */
async function servedProof(
  method: 'file' | 'meta',
  origin: string,
  path: string,
  maxBytes: number,
  settings: ProofSettings,
  judge: (response: FetchedResponse) => { outcome: ProofOutcome; reason: string },
): Promise<ProofCheck> {
  const name = hostKey(new URL(origin).hostname);
  const fetched = await withClient(settings, (client) => fetchWithinSite(client, new URL(path, origin).href, maxBytes));
  const why =
    'failed' in fetched
      ? { outcome: fetched.failed, reason: fetched.reason }
      : fetched.response.status !== 200
        ? notServed(fetched.response, path)
        : judge(fetched.response);
  return { method, name, ...why };
}

/**
 * The file under /.well-known/ on an origin: a 200 that is small and no HTML, with the token on a
 * line of its own. It speaks for the origin's host, on both schemes.
 */
export function checkFileProof(origin: string, token: string, settings: ProofSettings): Promise<ProofCheck> {
  const path = PROOF_PLACES.filePath;
  return servedProof('file', origin, path, LIMITS.fileBytes + 1, settings, (response) => {
    const type = firstHeader(response.headers, 'content-type');
    const text = decodeBody(response.body, type);
    if ((type !== null && isHtmlContentType(type)) || looksLikeHtml(text))
      return { outcome: 'absent', reason: `${path} is een HTML-pagina, geen tekstbestand` };
    if (response.body.length > LIMITS.fileBytes)
      return { outcome: 'absent', reason: `${path} is groter dan ${LIMITS.fileBytes} bytes` };
    return text.split(/\r?\n/).some((line) => line.trim() === token)
      ? { outcome: 'present', reason: `${path} bevat het token` }
      : { outcome: 'absent', reason: `${path} bevat het token van dit account niet op een eigen regel` };
  });
}

/**
 * The meta tag in the head of the served HTML of `/` of an origin. Not one in the body, not one a
 * script writes (scripts do not run here): it speaks for the origin's host.
 */
export function checkMetaProof(origin: string, token: string, settings: ProofSettings): Promise<ProofCheck> {
  return servedProof('meta', origin, '/', LIMITS.pageBytes, settings, (response) => {
    const found = metaContents(decodeBody(response.body, firstHeader(response.headers, 'content-type')));
    if (found.head.includes(token)) return { outcome: 'present', reason: 'meta-tag in de <head> van / gevonden' };
    if (found.elsewhere.includes(token))
      return { outcome: 'absent', reason: 'de meta-tag staat niet in de <head> van de pagina (maar in de <body>)' };
    return {
      outcome: 'absent',
      reason: `geen meta-tag "${PROOF_PLACES.metaName}" met het token van dit account in de <head> van /`,
    };
  });
}

/** The origin a site's `/` lands on after redirects within its registrable domain: its probes run there. */
export async function landingOrigin(origin: string, settings: ProofSettings): Promise<string | null> {
  const fetched = await withClient(settings, (client) => fetchWithinSite(client, new URL('/', origin).href, 1024));
  return 'response' in fetched ? new URL(fetched.response.url).origin : null;
}

async function withClient<T>(settings: ProofSettings, use: (client: HttpClient) => Promise<T>): Promise<T> {
  const client = new HttpClient({
    allowPrivateTargets: settings.allowPrivateTargets,
    dnsServers: settings.dnsServers,
    requestTimeoutMs: settings.requestTimeoutMs,
    maxSocketsPerHost: 2,
    signal: settings.signal ?? AbortSignal.timeout(4 * settings.requestTimeoutMs),
  });
  try {
    return await use(client);
  } finally {
    client.close();
  }
}

/** Elements the HTML parser keeps in the head; any other element or text starts the body (HTML's "in head" mode). */
const HEAD_ELEMENTS = new Set([
  'html',
  'head',
  'base',
  'basefont',
  'bgsound',
  'link',
  'meta',
  'noframes',
  'script',
  'style',
  'template',
  'title',
  'noscript',
]);
const RAW_TEXT = new Set(['script', 'style', 'title', 'noframes', 'noscript', 'template']);

/**
 * The contents of this service's meta tags in one streaming pass, split by where a browser's parser
 * would put them: in the head, or elsewhere (the body, a template's inert content).
 */
export function metaContents(html: string): { head: string[]; elsewhere: string[] } {
  const found = { head: [] as string[], elsewhere: [] as string[] };
  let inHead = true;
  let rawDepth = 0;
  let templateDepth = 0;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (!HEAD_ELEMENTS.has(name)) inHead = false;
        if (name === 'template') templateDepth += 1;
        if (name === 'meta' && (attrs.name ?? '').trim().toLowerCase() === PROOF_PLACES.metaName) {
          const content = (attrs.content ?? '').trim();
          (inHead && templateDepth === 0 ? found.head : found.elsewhere).push(content);
        }
        if (RAW_TEXT.has(name)) rawDepth += 1;
      },
      ontext(text) {
        // Text outside the head's own elements starts the body; whitespace does not.
        if (rawDepth === 0 && text.trim() !== '') inHead = false;
      },
      onclosetag(name) {
        if (RAW_TEXT.has(name)) rawDepth = Math.max(0, rawDepth - 1);
        if (name === 'template') templateDepth = Math.max(0, templateDepth - 1);
        if (name === 'head') inHead = false;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return found;
}
