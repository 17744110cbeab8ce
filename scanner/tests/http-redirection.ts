import { REDIRECT_FINDINGS } from '../catalog/ssl-tls.ts';
import { checkHttpRedirection } from '../checks/redirection.ts';
import { sameHost } from '../probes/retriever.ts';
import { defineTest, failureReason, originOfUrl } from './test.ts';

/** http:// should go straight to https:// on the same host (the Observatory's redirection test). */
export const httpRedirectionTest = defineTest({
  name: 'http_redirection',
  category: 'SSL_TLS',
  subject: 'origin',
  reach: 'passive',
  produces: REDIRECT_FINDINGS,
  checks: { http_redirection: checkHttpRedirection },
  subjectOf: (site) => originOfUrl(site.httpRedirects[0]?.url ?? sameHost(site.target, 'http:')),
  coverage: (ctx, { site, client }, subject) => {
    if (!ctx.evidence.https) return [{ subject, status: 'not_applicable', reason: 'geen werkende HTTPS' }];
    // A refused port 80 is an answer (nothing to redirect); a time-out is not.
    const failure = site.httpRedirects.length === 0 ? site.plainFailure : undefined;
    if (failure && failure !== 'refused')
      return [{ subject, status: 'failed', reason: failureReason(failure, client) }];
    return [{ subject, status: 'completed', reason: null }];
  },
});
