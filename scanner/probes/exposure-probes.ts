import { randomBytes } from 'node:crypto';
import type { HttpClient } from '../net/http-client.ts';
import { siteOf } from '../net/registrable-domain.ts';
import type { FetchedResponse, ProbeEvidence } from '../types.ts';
import { DEFAULT_PROBE_BYTES, EXPOSURE_PROBES, ruleFor, type ExposureProbe } from './exposure-rules.ts';
import type { HtmlFacts } from './html.ts';

const MAX_SOURCE_MAP_PROBES = 3;

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

/**
 * Random paths in the shapes the probes have (a file, a dotfile, a folder): servers often answer
 * each shape with its own not-found page, and a probe is only compared with those.
 */
const notFoundPaths = () => {
  const token = randomBytes(8).toString('hex');
  return [`/${token}-niet-gevonden.txt`, `/.${token}`, `/${token}/`];
};

/**
 * The origin the probes run on: the page's when the target redirected within its own site (http
 * to https, apex to www), the target's own when it redirected elsewhere: another party's host is
 * never probed.
 */
export function probeOriginOf(target: URL, pageUrl: string): string {
  const page = new URL(pageUrl);
  return (siteOf(page.hostname) === siteOf(target.hostname) ? page : target).origin;
}

/** An endpoint that exists but takes its queries by POST only: 405, or a 400 that names the method. */
function refusesGet(response: FetchedResponse): boolean {
  return (
    response.status === 405 ||
    (response.status === 400 && /\b(GET|POST)\b/.test(response.body.toString('utf8', 0, 2048)))
  );
}

/** The exposure probes and the not-found baselines they are compared with, on the probe origin. */
export async function probeExposures(
  client: HttpClient,
  target: URL,
  page: FetchedResponse,
  facts: HtmlFacts | null,
  concurrency: number,
): Promise<{ notFoundBaselines: FetchedResponse[]; probes: ProbeEvidence[] }> {
  const probeOrigin = probeOriginOf(target, page.url);
  const ownSite = probeOrigin === new URL(page.url).origin;
  // The baselines are only compared after all answers are in, so they share the probes' pool.
  const baselines = Promise.all(
    notFoundPaths().map((path) => client.fetch(new URL(path, probeOrigin).href, { maxBytes: DEFAULT_PROBE_BYTES })),
  );
  const probes = [...EXPOSURE_PROBES, ...(ownSite ? sourceMapProbes(page, facts) : [])];
  const probing = mapBounded(probes, concurrency, async (probe): Promise<ProbeEvidence> => {
    const url = new URL(probe.path, probeOrigin).href;
    const maxBytes = ruleFor(probe.type).maxBytes ?? DEFAULT_PROBE_BYTES;
    // Apollo's CSRF guard lets a GET query through with this header; other servers ignore it.
    const response = await client.fetch(probe.query ? `${url}?${probe.query}` : url, {
      maxBytes,
      headers: probe.query ? { accept: 'application/json', 'apollo-require-preflight': 'true' } : undefined,
    });
    if (probe.postOnRefusal && response && refusesGet(response)) {
      const posted = await client.fetch(url, {
        method: 'POST',
        body: probe.postOnRefusal,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        maxBytes,
      });
      return { type: probe.type, url, response: posted };
    }
    return { type: probe.type, url, response };
  });
  const [answered, probeEvidence] = await Promise.all([baselines, probing]);
  return { notFoundBaselines: answered.filter((b): b is FetchedResponse => b !== null), probes: probeEvidence };
}
