import { firstHeader } from '../net/headers.ts';
import { looksLikeHtml } from '../probes/html.ts';
import { EXPOSURE_RULES, confirmsExposure } from '../probes/exposure-rules.ts';
import type { FetchedResponse, Observation } from '../types.ts';
import { observe, type Check } from './context.ts';

/**
 * The body with what varies between two not-found answers removed: the requested path (raw, encoded
 * and its last segment), numbers (timestamps, request ids) and long random tokens (nonces).
 */
/** Runs of token characters: one greedy class, matched once per run (linear on any text). */
const TOKEN_RUN = /[A-Za-z0-9+/_=-]+/g;
const seen = new WeakMap<FetchedResponse, string>();

/**
 * An answer with what varies per request taken out: the path it echoes, and every token run that
 * holds a digit or is 16 characters or more (ids, hashes, nonces, timestamps). One pass over at most
 * 8 KiB, and once per answer: a scan compares every probe with every not-found baseline.
 */
function normalized(response: FetchedResponse): string {
  const known = seen.get(response);
  if (known !== undefined) return known;
  const path = new URL(response.url).pathname;
  const decoded = (() => {
    try {
      return decodeURIComponent(path);
    } catch {
      return path;
    }
  })();
  const variants = [path, decoded, path.split('/').filter(Boolean).pop() ?? path].filter((v) => v.length > 1);
  let text = response.body.toString('utf8', 0, 8192);
  for (const variant of variants.sort((a, b) => b.length - a.length)) text = text.split(variant).join('');
  const result = text.replace(TOKEN_RUN, (run) => (run.length >= 16 || /\d/.test(run) ? '' : run));
  seen.set(response, result);
  return result;
}

/** Soft-404 sites and single-page apps answer every path alike; such an answer is "not found". */
export function resemblesBaseline(response: FetchedResponse, baseline: FetchedResponse): boolean {
  if (baseline.status !== response.status) return false;
  if (firstHeader(baseline.headers, 'content-type') !== firstHeader(response.headers, 'content-type')) return false;
  return normalized(baseline) === normalized(response);
}

function describe(response: FetchedResponse): string {
  const type = firstHeader(response.headers, 'content-type') ?? 'onbekend type';
  return `HTTP ${response.status}, ${type}, inhoud bevestigd (${response.body.length} bytes gelezen)`;
}

export const checkExposures: Check = (ctx) => {
  const { probes, notFoundBaselines, page } = ctx.evidence;
  const found: Observation[] = [];
  for (const probe of probes) {
    const response = probe.response;
    if (!response) continue;
    if (notFoundBaselines.some((baseline) => resemblesBaseline(response, baseline))) continue;
    if (confirmsExposure(probe.type, response, looksLikeHtml))
      found.push(observe(probe.type, probe.url, describe(response)));
  }
  if (page?.html && EXPOSURE_RULES.directory_listing.confirm(Buffer.alloc(0), page.html)) {
    found.push(observe('directory_listing', page.url, `HTTP ${page.status}, directory-index van de pagina zelf`));
  }
  return found;
};
