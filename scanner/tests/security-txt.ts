import { SECURITY_TXT_FINDINGS } from '../catalog/security-headers.ts';
import { checkSecurityTxt } from '../checks/security-txt.ts';
import { followChain } from '../probes/retriever.ts';
import type { SecurityTxtEvidence } from '../types.ts';
import { defineTest, failureReason, originOfUrl, REASONS } from './test.ts';

/** A security.txt is a few KiB; a larger answer is judged from its start. */
const SECURITY_TXT_BYTES = 32 * 1024;

/** RFC 9116 section 3: /.well-known/security.txt on the HTTPS origin, and the legacy top-level path (redirects followed). */
export const securityTxtTest = defineTest({
  name: 'security_txt',
  category: 'SECURITY_HEADER',
  subject: 'origin',
  reach: 'passive',
  produces: SECURITY_TXT_FINDINGS,
  checks: { security_txt: checkSecurityTxt },
  subjectOf: (site) => originOfUrl(site.httpsUrl),
  gate: ({ site }) => (site.tlsWorks ? null : { status: 'not_applicable', reason: 'geen werkende HTTPS' }),
  probe: async ({ client, site }) => {
    const wellKnownUrl = new URL('/.well-known/security.txt', site.httpsUrl.origin).href;
    const legacyUrl = new URL('/security.txt', site.httpsUrl.origin).href;
    const [wellKnown, legacy] = await Promise.all([
      followChain(client, wellKnownUrl, {}, SECURITY_TXT_BYTES),
      followChain(client, legacyUrl, {}, SECURITY_TXT_BYTES),
    ]);
    const securityTxt: SecurityTxtEvidence = {
      wellKnownUrl,
      legacyUrl,
      wellKnown: wellKnown.final,
      legacy: legacy.final,
    };
    return { securityTxt };
  },
  coverage: (ctx, { client }, subject) => {
    const found = ctx.evidence.securityTxt;
    // Either path without an answer: the file may be there, so nothing about it is known.
    const unanswered = found
      ? [found.wellKnown ? null : found.wellKnownUrl, found.legacy ? null : found.legacyUrl]
      : [];
    const url = unanswered.find((u) => u !== null);
    if (!url) return [{ subject, status: 'completed', reason: null }];
    const failure = client.failureOf(url);
    return [{ subject, status: 'failed', reason: failure ? failureReason(failure, client) : REASONS.noAnswer }];
  },
});
