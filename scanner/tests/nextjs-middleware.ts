import { checkNextMiddleware } from '../checks/client-code.ts';
import { probeMiddlewareBypass } from '../probes/nextjs-middleware.ts';
import { detectSitePlatform } from '../probes/site-platform.ts';
import { defineTest, pageOriginOf } from './test.ts';

/** CVE-2025-29927: routes a Next.js middleware guards, asked again with x-middleware-subrequest. */
export const nextjsMiddlewareTest = defineTest({
  name: 'nextjs_middleware',
  category: 'EXPOSED_ENDPOINT',
  subject: 'page',
  reach: 'intrusive',
  readsPage: true,
  produces: ['nextjs_middleware_bypass'],
  checks: { nextjs_middleware: checkNextMiddleware },
  subjectOf: pageOriginOf,
  gate: ({ site }) =>
    site.facts && detectSitePlatform(site.page, site.facts) === 'nextjs'
      ? null
      : { status: 'not_applicable', reason: 'geen Next.js-site' },
  probe: async ({ client, site }) => ({
    middleware: await probeMiddlewareBypass(client, site.page!.url, site.facts!),
  }),
});
