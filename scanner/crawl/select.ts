import type { CrawlSkip } from '../vocabulary.ts';
import { patternMatches } from './robots.ts';

/** A page the crawl may visit, from a sitemap or a link of a page it read. */
export interface Candidate {
  url: string;
  source: 'sitemap' | 'link';
  /** Discovery order: sitemap entries in file order, then links page by page, navigation first. */
  order: number;
  /** The sitemap's <priority> (0.5 when not in a sitemap) and <lastmod> (0 when unknown). */
  priority: number;
  lastmod: number;
  nav: boolean;
}

/** Links that end something (a session, a subscription, a record): never followed. */
const ENDING_WORDS = [
  'logout',
  'log-out',
  'log_out',
  'logoff',
  'signout',
  'sign-out',
  'uitloggen',
  'afmelden',
  'uitschrijven',
  'unsubscribe',
  'delete',
  'verwijder',
];

/** Names of pages where forms and sessions live (Dutch and English): visited first in their section. */
const INTEREST_WORDS = [
  'login',
  'log-in',
  'signin',
  'sign-in',
  'inloggen',
  'aanmelden',
  'register',
  'registreren',
  'signup',
  'account',
  'profiel',
  'profile',
  'wachtwoord',
  'password',
  'cart',
  'winkelwagen',
  'winkelmand',
  'checkout',
  'afrekenen',
  'kassa',
  'bestellen',
  'contact',
];

/** Paths whose name says they are no HTML page: never fetched as one. */
const ASSET_PATH =
  /\.(js|mjs|css|png|jpe?g|gif|svg|webp|avif|ico|woff2?|ttf|otf|map|txt|xml|json|pdf|zip|gz|mp4|mp3|webm|docx?|xlsx?)$/i;
/** URLs longer than this are not followed (each costs robots matching; real pages are shorter). */
const MAX_URL = 2_048;

const lowerPath = (url: URL) => decodeURIComponentSafe(url.pathname).toLowerCase();

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export const endsSomething = (url: URL) => {
  const path = lowerPath(url);
  return ENDING_WORDS.some((word) => path.includes(word));
};

export const interestOf = (url: URL) => {
  const path = lowerPath(url);
  return INTEREST_WORDS.some((word) => path.includes(word)) ? 1 : 0;
};

/** A path's first segment: the section a page belongs to ("" for the root). */
export const sectionOf = (url: URL) => url.pathname.split('/')[1] ?? '';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HASH = /^[0-9a-f]{16,}$/i;

/** A path with its numbers, UUIDs and hashes folded: pages of one template share it. */
export function templateOf(url: URL): string {
  return url.pathname
    .split('/')
    .map((segment) =>
      UUID.test(segment) ? ':uuid' : HASH.test(segment) && /\d/.test(segment) ? ':hash' : segment.replace(/\d+/g, '0'),
    )
    .join('/');
}

/** Whether a path matches one of the site's path patterns (robots.txt's syntax: `*`, a closing `$`). */
export const matchesAny = (patterns: readonly string[], url: URL) =>
  patterns.some((pattern) => patternMatches(pattern, `${url.pathname}${url.search}`));

export interface Scope {
  origin: string;
  includePaths: readonly string[];
  excludePaths: readonly string[];
}

/**
 * A link or sitemap location as a page to visit: the same origin, no query, no fragment, no asset,
 * nothing that ends something, within the site's include and exclude paths. Null for what is no
 * page at all (mailto:, javascript:, an unparsable reference), which is not counted.
 */
export function candidateUrl(raw: string, base: string, scope: Scope): { url: string } | { skip: CrawlSkip } | null {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  if (url.origin !== scope.origin) return { skip: 'off_origin' };
  if (ASSET_PATH.test(url.pathname)) return { skip: 'not_html' };
  if (url.search !== '' || url.href.length > MAX_URL || endsSomething(url)) return { skip: 'excluded' };
  if (scope.includePaths.length > 0 && !matchesAny(scope.includePaths, url)) return { skip: 'excluded' };
  if (matchesAny(scope.excludePaths, url)) return { skip: 'excluded' };
  return { url: url.href };
}

const byRank = (a: Candidate, b: Candidate) =>
  b.priority - a.priority || b.lastmod - a.lastmod || a.order - b.order || (a.url < b.url ? -1 : 1);

const bySectionChoice = (a: Candidate, b: Candidate) =>
  interestOf(new URL(b.url)) - interestOf(new URL(a.url)) || Number(b.nav) - Number(a.nav) || byRank(a, b);

/**
 * The next pages to visit, at most `room`, from what was found so far; the same site gives the
 * same choice. First one page per section no visited page is in (pages named like a login,
 * account, cart or checkout first), then the rest by sitemap priority, date and discovery order;
 * never more than two pages of one template over the whole selection.
 */
export function selectPages(
  candidates: readonly Candidate[],
  visited: readonly string[],
  room: number,
  allowed: (url: URL) => boolean,
): Candidate[] {
  const taken = new Set(visited);
  const templates = new Map<string, number>();
  const sections = new Set<string>();
  for (const page of visited) {
    const url = new URL(page);
    templates.set(templateOf(url), (templates.get(templateOf(url)) ?? 0) + 1);
    sections.add(sectionOf(url));
  }
  const open = candidates.filter((c) => !taken.has(c.url) && allowed(new URL(c.url)));
  const chosen: Candidate[] = [];
  const take = (candidate: Candidate) => {
    const template = templateOf(new URL(candidate.url));
    if (chosen.length >= room || taken.has(candidate.url) || (templates.get(template) ?? 0) >= 2) return;
    chosen.push(candidate);
    taken.add(candidate.url);
    templates.set(template, (templates.get(template) ?? 0) + 1);
  };
  const bySection = new Map<string, Candidate[]>();
  for (const candidate of [...open].sort((a, b) => a.order - b.order)) {
    const section = sectionOf(new URL(candidate.url));
    if (!sections.has(section)) bySection.set(section, [...(bySection.get(section) ?? []), candidate]);
  }
  for (const group of bySection.values()) {
    const [best] = [...group].sort(bySectionChoice);
    if (best) take(best);
  }
  for (const candidate of [...open].sort(byRank)) take(candidate);
  return chosen;
}

/** Why a URL found but never visited was left: robots.txt, or its template was full. Null: there was no room. */
export function leftBecause(
  candidate: Candidate,
  visited: readonly string[],
  allowed: (url: URL) => boolean,
): CrawlSkip | null {
  const url = new URL(candidate.url);
  if (!allowed(url)) return 'robots';
  const template = templateOf(url);
  const same = visited.filter((page) => templateOf(new URL(page)) === template).length;
  return same >= 2 ? 'template_duplicate' : null;
}
