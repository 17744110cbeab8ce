/**
 * robots.txt as RFC 9309 reads it: groups by user agent, Allow and Disallow rules with `*` and a
 * closing `$`, the longest match deciding and Allow winning a tie. The matcher is linear in the
 * path and the pattern (no regular expression is built from the site's text).
 */

/** The product token a site's robots.txt names the scanner by (scanner/net/http-client.ts USER_AGENT). */
export const ROBOTS_PRODUCT_TOKEN = 'websitesecurityscanner';
/** Bytes of robots.txt read; RFC 9309 asks crawlers to read at least 500 KiB. */
export const ROBOTS_BYTES = 500 * 1024;
/** Rules kept per group, and the longest pattern: what a hostile file can make each match cost. */
const MAX_RULES = 1_000;
const MAX_PATTERN = 2_048;

interface Rule {
  allow: boolean;
  pattern: string;
}

export interface RobotsRules {
  /** The rules of the group for our product token, else `*`; empty allows everything. */
  rules: Rule[];
  /** Sitemap lines, as written. */
  sitemaps: string[];
  /** true: everything is disallowed (robots.txt answered 5xx or not at all). */
  disallowAll: boolean;
}

export const ALLOW_ALL: RobotsRules = { rules: [], sitemaps: [], disallowAll: false };
export const DISALLOW_ALL: RobotsRules = { rules: [], sitemaps: [], disallowAll: true };

/** Percent-encodes what a URL's path would (non-ASCII, spaces), so a pattern compares with URL.pathname. */
function encoded(pattern: string): string {
  let out = '';
  for (const char of pattern) {
    const code = char.codePointAt(0)!;
    out += code > 0x7e || code <= 0x20 ? encodeURIComponent(char) : char;
  }
  return out;
}

/** The product token of a user-agent line: its leading letters, `_` and `-`, lowercased. */
function productToken(value: string): string {
  let end = 0;
  while (end < value.length && /[A-Za-z_-]/.test(value[end]!)) end++;
  return value === '*' ? '*' : value.slice(0, end).toLowerCase();
}

/** Parses robots.txt; groups for the same agent are merged, as RFC 9309 section 2.2.1 says. */
export function parseRobots(text: string): RobotsRules {
  const groups = new Map<string, Rule[]>();
  const sitemaps: string[] = [];
  let agents: string[] = [];
  let inRules = false;
  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const hash = rawLine.indexOf('#');
    const line = (hash >= 0 ? rawLine.slice(0, hash) : rawLine).trim();
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'sitemap') {
      if (value) sitemaps.push(value);
      continue;
    }
    if (key === 'user-agent') {
      // A user-agent line after rules starts a new group.
      if (inRules) agents = [];
      inRules = false;
      const token = productToken(value);
      if (token) agents.push(token);
      continue;
    }
    if (key !== 'allow' && key !== 'disallow') continue;
    inRules = true;
    // An empty Disallow allows everything: no rule.
    if (!value || value.length > MAX_PATTERN) continue;
    for (const agent of agents) {
      const rules = groups.get(agent) ?? [];
      if (rules.length < MAX_RULES) rules.push({ allow: key === 'allow', pattern: encoded(value) });
      groups.set(agent, rules);
    }
  }
  return { rules: groups.get(ROBOTS_PRODUCT_TOKEN) ?? groups.get('*') ?? [], sitemaps, disallowAll: false };
}

/**
 * Whether a pattern matches a path from its start: `*` any run of characters, a final `$` the end.
 * Each literal piece is found at its leftmost place after the previous one, which is a match
 * whenever one exists; the last piece of an anchored pattern must end the path.
 */
export function patternMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const pieces = (anchored ? pattern.slice(0, -1) : pattern).split('*');
  const first = pieces[0]!;
  if (!path.startsWith(first)) return false;
  if (pieces.length === 1) return !anchored || path.length === first.length;
  let at = first.length;
  const last = pieces.length - 1;
  for (let i = 1; i < last; i++) {
    const found = path.indexOf(pieces[i]!, at);
    if (found < 0) return false;
    at = found + pieces[i]!.length;
  }
  const tail = pieces[last]!;
  if (anchored) return path.length - tail.length >= at && path.endsWith(tail);
  return path.indexOf(tail, at) >= 0;
}

/** Whether robots.txt allows a URL's path and query; /robots.txt itself is always allowed. */
export function robotsAllow(robots: RobotsRules, url: URL): boolean {
  const path = `${url.pathname}${url.search}`;
  if (url.pathname === '/robots.txt') return true;
  if (robots.disallowAll) return false;
  let best: Rule | null = null;
  for (const rule of robots.rules) {
    if (!patternMatches(rule.pattern, path)) continue;
    const longer = !best || rule.pattern.length > best.pattern.length;
    const tieAllow = best && rule.pattern.length === best.pattern.length && rule.allow;
    if (longer || tieAllow) best = rule;
  }
  return best === null || best.allow;
}
