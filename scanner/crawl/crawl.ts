import { decodeBody } from '../net/charset.ts';
import { firstHeader } from '../net/headers.ts';
import type { HttpClient } from '../net/http-client.ts';
import type { FetchedResponse } from '../net/http-evidence.ts';
import { isHtmlContentType, parseHtml, type HtmlFacts } from '../probes/html.ts';
import { httpUrl } from '../probes/chunk-references.ts';
import { followChain, PAGE_BYTES, type SiteContact } from '../probes/retriever.ts';
import type { CrawlSkip, CrawlStop, PageSource, RobotsVerdict } from '../vocabulary.ts';
import { ALLOW_ALL, DISALLOW_ALL, parseRobots, ROBOTS_BYTES, robotsAllow, type RobotsRules } from './robots.ts';
import { candidateUrl, leftBecause, selectPages, type Candidate, type Scope } from './select.ts';
import { parseSitemap, SITEMAP_BYTES, unpackSitemap } from './sitemap.ts';

/** The bounds of one scan's crawl (docs/scanner.md, "Pages"). */
export const CRAWL_LIMITS = {
  /** The plans' highest max_pages. */
  maxPages: 25,
  givenPages: 20,
  pageBytes: PAGE_BYTES,
  htmlBytes: 8 * 1024 * 1024,
  sitemapFiles: 3,
  sitemapBytes: SITEMAP_BYTES,
  urls: 5_000,
  inFlight: 2,
  redirects: 5,
  timeMs: 30_000,
} as const;

export interface CrawlRequest {
  /** Pages to examine, the start page included: 1 reads the start page alone, as a scan always did. */
  maxPages: number;
  /** Pages the caller names (absolute URLs on the site): fetched whatever robots.txt says, and marked. */
  given: readonly string[];
  /** Where the site's open page-level findings were seen last time: visited again to confirm a fix. */
  previous: readonly string[];
  includePaths: readonly string[];
  excludePaths: readonly string[];
  /** The crawl's own time limit; default CRAWL_LIMITS.timeMs. */
  timeMs?: number;
  /** The clock the time limit is measured on (tests move it); default Date.now. */
  now?: () => number;
}

export const ONE_PAGE: CrawlRequest = { maxPages: 1, given: [], previous: [], includePaths: [], excludePaths: [] };

/** A page the crawl visited, as the scan lists it; `response` and `facts` for an HTML answer. */
export interface CrawledPage {
  /** Where the page ended up after same-origin redirects. */
  url: string;
  /** The URL asked for (a previous or given page that now redirects is examined at `url`). */
  requested: string;
  source: PageSource;
  /** The HTTP status; null when the page did not answer. */
  status: number | null;
  content_type: string | null;
  robots: RobotsVerdict | null;
  response: FetchedResponse | null;
  facts: HtmlFacts | null;
}

export interface CrawlSummary {
  max_pages: number;
  visited: number;
  stopped_by: CrawlStop | null;
  skipped: Record<CrawlSkip, number>;
}

export interface Crawl {
  summary: CrawlSummary;
  pages: CrawledPage[];
  /** URLs asked for that redirected to a page listed under another URL. */
  aliases: Array<{ from: string; to: string }>;
}

export const noSkips = (): Record<CrawlSkip, number> => ({
  robots: 0,
  off_origin: 0,
  not_html: 0,
  template_duplicate: 0,
  excluded: 0,
});

/** What a scan that read its start page alone says of its crawl (also for scans stored before crawling). */
export function onePage(
  url: string,
  status: number | null,
  contentType: string | null,
): { crawl: CrawlSummary & { limited_by: null }; pages: Array<Omit<CrawledPage, 'requested' | 'response' | 'facts'>> } {
  return {
    crawl: { max_pages: 1, visited: 1, stopped_by: 'max_pages', skipped: noSkips(), limited_by: null },
    pages: [{ url, source: 'start', status, content_type: contentType, robots: null }],
  };
}

/** The start page as the crawl lists it. */
function startPage(site: SiteContact, robots: RobotsVerdict | null): CrawledPage {
  const response = site.pageResponse;
  return {
    url: site.page?.url ?? site.target.href,
    requested: site.target.href,
    source: 'start',
    status: response?.status ?? null,
    content_type: response ? firstHeader(response.headers, 'content-type') : null,
    robots,
    response,
    facts: site.facts,
  };
}

/** RFC 9309 section 2.3.1.3/2.3.1.4: 2xx rules, 4xx allows everything, 5xx or no answer disallows the crawl. */
async function readRobots(client: HttpClient, origin: string): Promise<RobotsRules> {
  const { final } = await followChain(client, new URL('/robots.txt', origin).href, {}, ROBOTS_BYTES);
  if (!final || final.status >= 500) return DISALLOW_ALL;
  if (final.status >= 400) return ALLOW_ALL;
  if (final.status < 200 || final.status >= 300) return ALLOW_ALL;
  return parseRobots(decodeBody(final.body, firstHeader(final.headers, 'content-type')));
}

const looksLikeSitemap = (text: string) => /<(?:[a-z0-9_-]+:)?(?:urlset|sitemapindex)[\s>]/i.test(text.slice(0, 4_096));

/**
 * The origin's sitemaps: robots.txt's Sitemap lines on this origin, else /sitemap.xml and
 * /wp-sitemap.xml; an index is followed one level deep, CRAWL_LIMITS.sitemapFiles files at most.
 */
async function readSitemaps(client: HttpClient, origin: string, robots: RobotsRules, scope: Scope) {
  const listed = robots.sitemaps
    .map((raw) => httpUrl(raw, origin))
    .filter((url): url is string => url !== null && new URL(url).origin === origin);
  const queue = listed.length > 0 ? listed : ['/sitemap.xml', '/wp-sitemap.xml'].map((p) => new URL(p, origin).href);
  const read = new Set<string>();
  const entries: Candidate[] = [];
  const skips: CrawlSkip[] = [];
  let files = 0;
  const depth = new Map(queue.map((url) => [url, 0]));
  while (queue.length > 0 && files < CRAWL_LIMITS.sitemapFiles && entries.length < CRAWL_LIMITS.urls) {
    const url = queue.shift()!;
    if (read.has(url)) continue;
    read.add(url);
    files += 1;
    const { final } = await followChain(client, url, {}, CRAWL_LIMITS.sitemapBytes);
    if (final?.status !== 200 || new URL(final.url).origin !== origin) continue;
    const body = unpackSitemap(final.body);
    if (!body) continue;
    const text = decodeBody(body, null);
    if (!looksLikeSitemap(text)) continue;
    const map = parseSitemap(text, CRAWL_LIMITS.urls - entries.length);
    if (map.index && (depth.get(url) ?? 0) === 0) {
      for (const child of map.sitemaps) {
        const next = httpUrl(child, final.url);
        if (next && new URL(next).origin === origin && !read.has(next)) {
          queue.push(next);
          depth.set(next, 1);
        }
      }
    }
    for (const entry of map.entries) {
      const found = candidateUrl(entry.url, final.url, scope);
      if (found && 'skip' in found) skips.push(found.skip);
      if (found && 'url' in found)
        entries.push({
          url: found.url,
          source: 'sitemap',
          order: 0,
          priority: entry.priority,
          lastmod: entry.lastmod,
          nav: false,
        });
    }
  }
  return { entries, skips };
}

/**
 * Reads the pages of a site beyond its start page, GET only, on the start page's origin after its
 * redirects: the pages the caller names, the pages of open findings, the sitemaps, then links of the
 * pages read, chosen as selectPages says. Never a form, a query string or another method. Stops at
 * `maxPages`, the HTML byte budget, its own time limit, or the scan's deadline.
 */
export async function crawlSite(
  site: SiteContact,
  client: HttpClient,
  signal: AbortSignal,
  request: CrawlRequest,
): Promise<Crawl> {
  const maxPages = Math.max(1, Math.min(request.maxPages, CRAWL_LIMITS.maxPages));
  const skipped = noSkips();
  const summary = (pages: CrawledPage[], stopped_by: CrawlStop | null, aliases: Crawl['aliases'] = []): Crawl => ({
    summary: { max_pages: maxPages, visited: pages.length, stopped_by, skipped },
    pages,
    aliases,
  });
  const given = request.given.slice(0, CRAWL_LIMITS.givenPages);
  if (!site.page || !site.facts || (maxPages === 1 && given.length === 0))
    return summary([startPage(site, null)], maxPages === 1 && site.facts ? 'max_pages' : null);

  const now = request.now ?? Date.now;
  const until = now() + (request.timeMs ?? CRAWL_LIMITS.timeMs);
  const origin = new URL(site.page.url).origin;
  const scope: Scope = { origin, includePaths: request.includePaths, excludePaths: request.excludePaths };
  const robots = await readRobots(client, origin);
  const allowed = (url: URL) => robotsAllow(robots, url);
  const start = startPage(site, allowed(new URL(site.page.url)) ? 'allowed' : 'disallowed');
  const pages: CrawledPage[] = [start];
  const seen = new Set([start.url, start.requested]);
  let bytes = site.pageResponse?.body.length ?? 0;
  let stop: CrawlStop | null = null;
  let considered = 0;
  const candidates = new Map<string, Candidate>();
  const countedOnce = new Set<string>();
  const aliases: Crawl['aliases'] = [];
  const countSkip = (cause: CrawlSkip) => {
    skipped[cause] += 1;
  };
  const offer = (candidate: Candidate) => {
    // A page of an open finding read already is still a candidate: the selection may reach it.
    if ((seen.has(candidate.url) && !unclaimed.has(candidate.url)) || considered >= CRAWL_LIMITS.urls) return;
    const known = candidates.get(candidate.url);
    if (known) {
      // A page in the sitemap and linked keeps its first place and the sitemap's priority.
      if (candidate.source === 'sitemap')
        Object.assign(known, { priority: candidate.priority, lastmod: candidate.lastmod });
      known.nav ||= candidate.nav;
      return;
    }
    considered += 1;
    candidates.set(candidate.url, { ...candidate, order: considered });
  };
  const offerLinks = (page: CrawledPage) => {
    if (!page.facts) return;
    const links = [...page.facts.links.filter((l) => l.nav), ...page.facts.links.filter((l) => !l.nav)];
    for (const link of links) {
      const found = candidateUrl(link.href, page.url, scope);
      if (!found) continue;
      if ('skip' in found) {
        // Each URL counted once, however many pages link to it.
        const key = `${found.skip} ${new URL(link.href, page.url).href}`;
        if (!countedOnce.has(key)) {
          countedOnce.add(key);
          countSkip(found.skip);
        }
        continue;
      }
      offer({ url: found.url, source: 'link', order: 0, priority: 0.5, lastmod: 0, nav: link.nav });
    }
  };

  /** Fetches a page, following up to CRAWL_LIMITS.redirects redirects on the origin; null when it left the origin. */
  const visit = async (
    requested: string,
    source: PageSource,
    robotsVerdict: RobotsVerdict,
  ): Promise<CrawledPage | null> => {
    let url = requested;
    // No answer (or redirects without end): listed with no status, judged by nothing.
    const unanswered = (): CrawledPage => ({
      url,
      requested,
      source,
      status: null,
      content_type: null,
      robots: robotsVerdict,
      response: null,
      facts: null,
    });
    for (let hop = 0; hop <= CRAWL_LIMITS.redirects; hop++) {
      const room = Math.min(CRAWL_LIMITS.pageBytes, CRAWL_LIMITS.htmlBytes - bytes);
      const response = await client.fetch(url, { maxBytes: Math.max(room, 0) });
      bytes += response?.body.length ?? 0;
      if (!response) return unanswered();
      const location =
        response.status >= 300 && response.status < 400 ? firstHeader(response.headers, 'location') : null;
      if (location) {
        const next = httpUrl(location, url);
        if (!next || new URL(next).origin !== origin) {
          countSkip('off_origin');
          return null;
        }
        url = new URL(next).href.replace(/#.*$/, '');
        continue;
      }
      const contentType = firstHeader(response.headers, 'content-type');
      const html = isHtmlContentType(contentType);
      if (!html && source !== 'given') {
        countSkip('not_html');
        return null;
      }
      const ok = html && response.status >= 200 && response.status < 300;
      return {
        ...unanswered(),
        status: response.status,
        content_type: contentType,
        response: ok ? response : null,
        facts: ok ? parseHtml(decodeBody(response.body, contentType)) : null,
      };
    }
    return unanswered();
  };

  const limitReached = (): CrawlStop | null => {
    if (signal.aborted) return 'deadline';
    if (now() >= until) return 'time';
    if (bytes >= CRAWL_LIMITS.htmlBytes) return 'bytes';
    return null;
  };

  /**
   * The pages the selection has taken, as a crawl without a past would: the start page, the given
   * ones and what selectPages chose. The pages of open findings are read first but join this list
   * only when the selection reaches them, so a rescan examines the same pages as the scan before.
   */
  const natural: string[] = [start.url];
  const unclaimed = new Map<string, CrawledPage>();

  /** Visits a batch, CRAWL_LIMITS.inFlight at a time, and lists the pages in the batch's order. */
  const visitAll = async (batch: Array<{ url: string; source: PageSource; robots: RobotsVerdict }>) => {
    const results: Array<CrawledPage | null> = new Array(batch.length).fill(null);
    let next = 0;
    const worker = async () => {
      while (next < batch.length && !stop) {
        const i = next++;
        stop = limitReached();
        if (stop) return;
        results[i] = await visit(batch[i]!.url, batch[i]!.source, batch[i]!.robots);
      }
    };
    await Promise.all(Array.from({ length: CRAWL_LIMITS.inFlight }, worker));
    for (const page of results) {
      if (!page || pages.length >= maxPages) continue;
      if (seen.has(page.url)) {
        // A page that now redirects to one already read was examined there.
        if (page.requested !== page.url) aliases.push({ from: page.requested, to: page.url });
        continue;
      }
      seen.add(page.url).add(page.requested);
      pages.push(page);
      if (page.source === 'previous') unclaimed.set(page.url, page);
      else natural.push(page.url);
    }
    // Links once the whole batch is listed: a page of the batch is not offered again by another.
    for (const page of results) if (page && natural.includes(page.url)) offerLinks(page);
  };

  // A page named on the site's host lands where the start page did (http to https, apex to www).
  const hosts = new Set([site.target.hostname, new URL(origin).hostname]);
  const onOrigin = (raw: string): string | null => {
    const url = new URL(raw);
    if (url.origin === origin) return url.href;
    if (!hosts.has(url.hostname)) return null;
    return new URL(`${url.pathname}${url.search}`, origin).href;
  };
  // The pages asked for and the pages of open findings come first, in that order.
  const firsts: Array<{ url: string; source: PageSource; robots: RobotsVerdict }> = [];
  const listed = (url: string) => seen.has(url) || firsts.some((f) => f.url === url);
  for (const raw of given) {
    const url = onOrigin(raw);
    if (url === null) countSkip('off_origin');
    else if (!listed(url))
      firsts.push({ url, source: 'given', robots: allowed(new URL(url)) ? 'allowed' : 'disallowed' });
  }
  for (const raw of request.previous) {
    const found = candidateUrl(onOrigin(raw) ?? raw, origin, scope);
    if (found && 'skip' in found) countSkip(found.skip);
    if (!found || 'skip' in found || listed(found.url)) continue;
    if (allowed(new URL(found.url))) firsts.push({ url: found.url, source: 'previous', robots: 'allowed' });
    else countSkip('robots');
  }
  offerLinks(start);
  await visitAll(firsts.slice(0, maxPages - pages.length));

  if (!stop && !robots.disallowAll) {
    const sitemaps = await readSitemaps(client, origin, robots, scope);
    sitemaps.skips.forEach(countSkip);
    // The sitemap's pages are found before the links of the pages read: they come first.
    const links = [...candidates.values()];
    candidates.clear();
    considered = 0;
    for (const entry of [...sitemaps.entries, ...links]) offer(entry);
  }

  while (!stop && !robots.disallowAll) {
    const room = maxPages - pages.length;
    const chosen = selectPages([...candidates.values()], natural, room + unclaimed.size, allowed);
    const fetch: Candidate[] = [];
    let claimed = 0;
    for (const candidate of chosen) {
      const read = unclaimed.get(candidate.url);
      if (read) {
        // Read already as a page of an open finding: it costs nothing more.
        candidates.delete(candidate.url);
        unclaimed.delete(candidate.url);
        natural.push(read.url);
        offerLinks(read);
        claimed += 1;
      } else if (fetch.length < room) {
        candidates.delete(candidate.url);
        fetch.push(candidate);
      }
    }
    if (fetch.length === 0 && claimed === 0) break;
    await visitAll(fetch.map((c) => ({ url: c.url, source: c.source, robots: 'allowed' as const })));
  }
  stop ??= limitReached() === 'deadline' ? 'deadline' : null;
  const visitedUrls = pages.map((p) => p.url);
  let left = 0;
  for (const candidate of candidates.values()) {
    const cause = robots.disallowAll ? 'robots' : leftBecause(candidate, visitedUrls, allowed);
    if (cause) countSkip(cause);
    else left += 1;
  }
  return summary(pages, stop ?? (left > 0 && pages.length >= maxPages ? 'max_pages' : null), aliases);
}
