import { checkJavascriptLibraries, checkNextjsVersion } from '../checks/components.ts';
import { httpUrl } from '../probes/chunk-references.ts';
import { probeNextjsContext } from '../probes/nextjs-context.ts';
import { detectSitePlatform } from '../probes/site-platform.ts';
import { COMPONENT_FINDING_TYPES } from '../vulndata/component-kinds.ts';
import {
  defineTest,
  failureReason,
  NO_DATA,
  pageOriginOf,
  REASONS,
  vulnerabilityDataGap,
  type SubjectCoverage,
} from './test.ts';

const LIBRARY_TYPES = COMPONENT_FINDING_TYPES.filter(
  (type) => type.startsWith('known_vulnerable_javascript_library_') || type.startsWith('known_vulnerable_nextjs_'),
);

/**
 * JavaScript libraries and Next.js at versions with published advisories (retire.js's data): the
 * versions every script's URL names, cross-site ones included without fetching them, and what the
 * same-site scripts read for the page say of themselves. Next.js's advisories are weighed against
 * the context GET requests show. The page is covered only when every script was read whole and
 * the data is current enough to stand for an all-clear.
 */
export const javascriptComponentsTest = defineTest({
  name: 'javascript_components',
  category: 'EXPOSED_ENDPOINT',
  subject: 'page',
  reach: 'passive',
  crawl: 'scripts',
  readsPage: true,
  produces: LIBRARY_TYPES,
  checks: { javascript_libraries: checkJavascriptLibraries, nextjs_version: checkNextjsVersion },
  subjectOf: pageOriginOf,
  gate: ({ site, options }) =>
    !site.facts
      ? { status: 'not_applicable', reason: 'geen HTML-pagina' }
      : options.vulnerabilityData
        ? null
        : { status: 'skipped', reason: NO_DATA },
  probe: async ({ client, site, options, clientCode, crawled }) => {
    const data = options.vulnerabilityData;
    const index = data?.data.retire?.index;
    const page = site.page!;
    const facts = site.facts!;
    const urls = [...new Set([...facts.scripts.map((s) => s.src), ...facts.scriptPreloads])]
      .map((src) => httpUrl(src, page.url))
      .filter((url): url is string => url !== null);
    const [code, nextjs] = await Promise.all([
      clientCode(),
      // Next.js's build is the origin's: its context is asked once, on the start page.
      !crawled && detectSitePlatform(page, facts) === 'nextjs' ? probeNextjsContext(client, page, facts) : null,
    ]);
    return {
      libraries: {
        sightings: [...urls.flatMap((url) => index?.urlSightings(url) ?? []), ...code.components],
        nextjs,
        unread: code.unread,
        data: data!,
      },
    };
  },
  coverage: (ctx, { client, options }, subject): SubjectCoverage[] => {
    const gap = vulnerabilityDataGap(options.vulnerabilityData, 'retire');
    if (gap) return [{ subject, status: 'failed', reason: gap }];
    const unread = ctx.evidence.libraries?.unread ?? [];
    if (unread.length === 0) return [{ subject, status: 'completed', reason: null }];
    const first = unread[0]!;
    const why =
      first.failure === 'limit'
        ? 'buiten de grenzen van de scan'
        : typeof first.failure === 'number'
          ? REASONS.unavailable(first.failure)
          : failureReason(first.failure, client);
    return [
      {
        subject,
        status: unread.every((u) => u.failure === 'limit') ? 'skipped' : 'failed',
        reason: `${unread.length} ${unread.length === 1 ? 'script' : 'scripts'} niet gelezen (${first.url}: ${why})`,
      },
    ];
  },
});
