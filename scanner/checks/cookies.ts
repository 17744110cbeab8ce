import type { FindingType } from '../catalog/index.ts';
import { headerValues } from '../net/headers.ts';
import { observe, type Check } from './context.ts';

export interface ParsedCookie {
  name: string;
  secure: boolean;
  httpOnly: boolean;
  /** Raw SameSite value; null when the attribute is absent. */
  sameSite: string | null;
  domain: string | null;
  path: string | null;
}

// Load-balancer affinity cookies carry no session; the Observatory ignores this one too.
const IGNORED_COOKIES = new Set(['heroku-session-affinity']);
const SAMESITE_VALUES = new Set(['lax', 'strict', 'none']);

export function parseSetCookie(header: string): ParsedCookie | null {
  const [pair, ...attributes] = header.split(';');
  const name = pair!.split('=')[0]!.trim();
  if (!name) return null;
  const cookie: ParsedCookie = { name, secure: false, httpOnly: false, sameSite: null, domain: null, path: null };
  for (const attribute of attributes) {
    const [rawKey, ...rest] = attribute.split('=');
    const key = rawKey!.trim().toLowerCase();
    const value = rest.join('=').trim();
    if (key === 'secure') cookie.secure = true;
    else if (key === 'httponly') cookie.httpOnly = true;
    else if (key === 'samesite') cookie.sameSite = value;
    else if (key === 'domain') cookie.domain = value;
    else if (key === 'path') cookie.path = value;
  }
  return cookie;
}

function problems(cookie: ParsedCookie): FindingType[] {
  const lower = cookie.name.toLowerCase();
  const session = lower.includes('sess') || lower.includes('login');
  const antiCsrf = lower.includes('csrf');
  const sameSite = cookie.sameSite?.toLowerCase() ?? null;
  const found: FindingType[] = [];
  if (sameSite !== null && !SAMESITE_VALUES.has(sameSite)) found.push('cookie_samesite_invalid');
  if (sameSite === 'none' && !cookie.secure) found.push('cookie_samesite_none_without_secure');
  if (!cookie.secure) found.push(session ? 'session_cookie_missing_secure' : 'cookie_missing_secure');
  if (session && !cookie.httpOnly) found.push('session_cookie_missing_httponly');
  if (sameSite === null) found.push(antiCsrf ? 'csrf_cookie_missing_samesite' : 'cookie_missing_samesite');
  const hostPrefixBroken =
    cookie.name.startsWith('__Host-') && (!cookie.secure || cookie.domain !== null || cookie.path !== '/');
  const securePrefixBroken = cookie.name.startsWith('__Secure-') && !cookie.secure;
  if (hostPrefixBroken || securePrefixBroken) found.push('cookie_prefix_invalid');
  return found;
}

/** One observation per problem type, naming every cookie that has it. */
export const checkCookies: Check = (ctx) => {
  const page = ctx.evidence.page;
  if (!page) return [];
  const byType = new Map<FindingType, string[]>();
  for (const header of headerValues(page.headers, 'set-cookie')) {
    const cookie = parseSetCookie(header);
    if (!cookie || IGNORED_COOKIES.has(cookie.name)) continue;
    for (const type of problems(cookie)) byType.set(type, [...(byType.get(type) ?? []), cookie.name]);
  }
  return [...byType].map(([type, names]) => observe(type, page.url, names.join(', ')));
};
