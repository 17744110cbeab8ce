import { findSiteWithLatestScan, listSites } from '../../db/sites.ts';
import { notFound } from '../../domain/errors.ts';
import { siteView } from '../../services/sites.ts';
import { pagination, PROTECTED_ERRORS } from '../common.ts';
import { protectedProcedure, router } from '../trpc.ts';
import { Site, SiteGetInput, SiteListInput, SiteListOutput } from './schemas.ts';

export const sitesRouter = router({
  list: protectedProcedure
    .meta({
      permission: 'read_scans',
      openapi: { method: 'GET', path: '/api/agent/sites', tags: ['sites'], summary: 'Sites van dit account met hun laatste scan', protect: true, errorResponses: PROTECTED_ERRORS },
    })
    .input(SiteListInput)
    .output(SiteListOutput)
    .query(async ({ ctx, input }) => {
      const { rows, total } = await listSites(ctx.db, ctx.principal.tenantId, { platform: input.platform }, input);
      return { sites: rows.map(siteView), pagination: pagination(total, input.limit, input.offset) };
    }),

  get: protectedProcedure
    .meta({
      permission: 'read_scans',
      openapi: { method: 'GET', path: '/api/agent/sites/{site_id}', tags: ['sites'], summary: 'Eén site met zijn laatste scan', protect: true, errorResponses: [...PROTECTED_ERRORS, 404] },
    })
    .input(SiteGetInput)
    .output(Site)
    .query(async ({ ctx, input }) => {
      // Another tenant's site is as absent as a missing one: the query is scoped to the tenant.
      const site = await findSiteWithLatestScan(ctx.db, ctx.principal.tenantId, input.site_id);
      if (!site) throw notFound('Site');
      return siteView(site);
    }),
});
