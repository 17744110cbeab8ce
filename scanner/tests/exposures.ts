import { checkExposures } from '../checks/exposures.ts';
import { EXPOSURE_RULES, type ExposureType } from '../probes/exposure-rules.ts';
import { UNAVAILABLE_STATUSES } from '../net/http-evidence.ts';
import { probeExposures, probeOriginOf } from '../probes/exposure-probes.ts';
import type { SiteContact } from '../probes/retriever.ts';
import { failureReason, defineTest, originOfUrl, REASONS } from './test.ts';

const probeOrigin = (site: SiteContact) =>
  site.page ? probeOriginOf(site.target, site.page.url) : originOfUrl(site.target);

/** Files and endpoints that should not be public (.git, .env, dumps, ...), confirmed by their formats. */
export const exposuresTest = defineTest({
  name: 'exposures',
  category: 'EXPOSED_ENDPOINT',
  subject: 'origin',
  reach: 'intrusive',
  produces: Object.keys(EXPOSURE_RULES) as ExposureType[],
  checks: { exposures: checkExposures },
  subjectOf: probeOrigin,
  gate: ({ options }) => (options.probeExposures ? null : { status: 'skipped', reason: REASONS.disabled }),
  probe: ({ client, site, options }) =>
    probeExposures(client, site.target, site.pageResponse!, site.facts, options.concurrency),
  coverage: (ctx, { client }, subject) => {
    const failures = ctx.evidence.probes
      .filter((p) => p.response === null)
      .map((p) => client.failureOf(p.url) ?? 'error');
    // The deadline ends every probe still waiting: it is the reason, whatever else failed first.
    const failure = failures.find((f) => f === 'deadline') ?? failures[0];
    if (failure) return [{ subject, status: 'failed', reason: failureReason(failure, client) }];
    const unavailable = ctx.evidence.probes.find((p) => p.response && UNAVAILABLE_STATUSES.has(p.response.status));
    return unavailable
      ? [{ subject, status: 'failed', reason: REASONS.unavailable(unavailable.response!.status) }]
      : [{ subject, status: 'completed', reason: null }];
  },
});
