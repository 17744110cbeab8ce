import { checkWordPressComponents } from '../checks/components.ts';
import { detectSitePlatform } from '../probes/site-platform.ts';
import { probeWordPress } from '../probes/wordpress-components.ts';
import { COMPONENT_FINDING_TYPES } from '../vulndata/component-kinds.ts';
import { defineTest, failureReason, NO_DATA, pageOriginOf, REASONS, vulnerabilityDataGap } from './test.ts';

/**
 * WordPress core, plugins and themes at versions Wordfence's data lists, read with at most about
 * 14 GET requests. Covered only with the full, current feed: the shipped excerpt finds what it
 * lists but is no all-clear.
 */
export const wordpressComponentsTest = defineTest({
  name: 'wordpress_components',
  category: 'EXPOSED_ENDPOINT',
  subject: 'origin',
  reach: 'intrusive',
  readsPage: true,
  produces: COMPONENT_FINDING_TYPES.filter((type) => type.startsWith('known_vulnerable_wordpress_')),
  checks: { wordpress_components: checkWordPressComponents },
  subjectOf: pageOriginOf,
  gate: ({ site, options }) =>
    !site.facts || detectSitePlatform(site.page, site.facts) !== 'wordpress'
      ? { status: 'not_applicable', reason: 'geen WordPress-site' }
      : options.vulnerabilityData
        ? null
        : { status: 'skipped', reason: NO_DATA },
  probe: async ({ client, site, options }) => ({
    wordpress: { ...(await probeWordPress(client, site.page!, site.facts!)), data: options.vulnerabilityData! },
  }),
  coverage: (ctx, { client, options }, subject) => {
    const gap = vulnerabilityDataGap(options.vulnerabilityData, 'wordfence');
    if (gap) return [{ subject, status: 'failed', reason: gap }];
    const unread = ctx.evidence.wordpress?.unread[0];
    if (!unread) return [{ subject, status: 'completed', reason: null }];
    const why =
      typeof unread.failure === 'number' ? REASONS.unavailable(unread.failure) : failureReason(unread.failure, client);
    return [{ subject, status: 'failed', reason: `${unread.url}: ${why}` }];
  },
});
