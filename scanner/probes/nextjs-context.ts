import { firstHeader, headerValues } from '../net/headers.ts';
import type { HttpClient } from '../net/http-client.ts';
import type { PageEvidence } from '../types.ts';
import type { NextjsContext } from '../vulndata/nextjs-applicability.ts';
import type { HtmlFacts } from './html.ts';

const FLIGHT_DATA = /self\.__next_f\b/;

/**
 * What GET requests show of a Next.js app, for the advisories that need a context: the router
 * (flight data or __NEXT_DATA__), whether a Next.js server answers (an App Router server answers
 * `RSC: 1` with its own payload type, a static export's file server with the HTML; a Pages Router
 * server names itself in its headers), and whether Vercel serves it.
 */
export async function probeNextjsContext(
  client: HttpClient,
  page: PageEvidence,
  facts: HtmlFacts,
): Promise<NextjsContext> {
  const router = facts.inlineScripts.some((s) => FLIGHT_DATA.test(s.text))
    ? 'app'
    : facts.elementIds.has('__NEXT_DATA__')
      ? 'pages'
      : null;
  const vercel =
    /^vercel$/i.test(firstHeader(page.headers, 'server') ?? '') || headerValues(page.headers, 'x-vercel-id').length > 0;
  const namesItself =
    /next\.js/i.test(firstHeader(page.headers, 'x-powered-by') ?? '') ||
    Object.keys(page.headers).some((name) => name.toLowerCase().startsWith('x-nextjs-'));
  let server: NextjsContext['server'] = namesItself ? 'live' : null;
  if (router === 'app') {
    const answer = await client.fetch(page.url, { headers: { rsc: '1' }, maxBytes: 64 * 1024 });
    const type = answer ? (firstHeader(answer.headers, 'content-type') ?? '') : '';
    if (answer?.status === 200)
      server = /text\/x-component/i.test(type) ? 'live' : /html/i.test(type) ? 'static' : server;
  }
  return { router, server, vercel };
}
