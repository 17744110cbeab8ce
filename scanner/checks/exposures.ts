import { firstHeader } from '../headers.ts';
import { looksLikeHtml } from '../html.ts';
import { EXPOSURE_RULES } from '../exposure-rules.ts';
import type { FetchedResponse, Observation } from '../types.ts';
import { observe, type Check } from './context.ts';

function normalized(response: FetchedResponse): string {
  const path = new URL(response.url).pathname;
  return response.body.toString('utf8', 0, 8192).split(path).join('').replace(/\d+/g, '');
}

/** Soft-404 sites and single-page apps answer every path alike; such an answer is "not found". */
export function resemblesBaseline(response: FetchedResponse, baseline: FetchedResponse | null): boolean {
  if (!baseline || baseline.status !== response.status) return false;
  if (firstHeader(baseline.headers, 'content-type') !== firstHeader(response.headers, 'content-type')) return false;
  return normalized(baseline) === normalized(response);
}

function describe(response: FetchedResponse): string {
  const type = firstHeader(response.headers, 'content-type') ?? 'onbekend type';
  return `HTTP ${response.status}, ${type}, inhoud bevestigd (${response.body.length} bytes gelezen)`;
}

export const checkExposures: Check = (ctx) => {
  const { probes, notFoundBaseline, page } = ctx.evidence;
  const found: Observation[] = [];
  for (const probe of probes) {
    const response = probe.response;
    if (!response || response.status < 200 || response.status >= 300) continue;
    const rule = EXPOSURE_RULES[probe.type];
    if (!rule) continue;
    const text = response.body.toString('utf8');
    if (!rule.html && looksLikeHtml(text)) continue;
    if (resemblesBaseline(response, notFoundBaseline)) continue;
    if (rule.confirm(response.body, text)) found.push(observe(probe.type, probe.url, describe(response)));
  }
  if (page?.html && EXPOSURE_RULES.directory_listing!.confirm(Buffer.alloc(0), page.html)) {
    found.push(observe('directory_listing', page.url, `HTTP ${page.status}, directory-index van de pagina zelf`));
  }
  return found;
};
