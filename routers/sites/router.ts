import { API_PATHS } from '../../domain/endpoints.ts';
import { addSite, getSite, listSites } from '../../services/sites.ts';
import { PROTECTED_ERRORS, fastParse } from '../common.ts';
import { protectedProcedure, router, userProcedure } from '../trpc.ts';
import { setScanSchedule } from '../../services/schedules.ts';
import { Site, SiteCreateInput, SiteGetInput, SiteListInput, SiteListOutput, SiteUpdateInput } from './schemas.ts';

export const sitesRouter = router({
  list: protectedProcedure
    .meta({
      permission: 'read_scans',
      openapi: { method: 'GET', path: API_PATHS.sites, tags: ['sites'], summary: 'Sites van dit account met hun laatste scan', protect: true, errorResponses: PROTECTED_ERRORS },
    })
    .input(fastParse(SiteListInput))
    .output(fastParse(SiteListOutput))
    .query(({ ctx, input }) => listSites(ctx, ctx.actor, { platform: input.platform }, input)),

  get: protectedProcedure
    .meta({
      permission: 'read_scans',
      openapi: { method: 'GET', path: API_PATHS.site, tags: ['sites'], summary: 'Eén site met zijn laatste scan', protect: true, errorResponses: [...PROTECTED_ERRORS, 404] },
    })
    .input(fastParse(SiteGetInput))
    .output(fastParse(Site))
    .query(({ ctx, input }) => getSite(ctx, ctx.actor, input.site_id)),

  update: protectedProcedure
    .meta({
      permission: 'write_config',
      openapi: { method: 'PATCH', path: API_PATHS.site, tags: ['sites'], summary: 'Scanschema van een site instellen', protect: true, errorResponses: [...PROTECTED_ERRORS, 404] },
    })
    .input(fastParse(SiteUpdateInput))
    .output(fastParse(Site))
    .mutation(({ ctx, input }) => setScanSchedule(ctx, ctx.actor, input.site_id, input.scan_interval_hours)),

  /** Dashboard only: people add sites (agents scan the ones they have). */
  create: userProcedure
    .meta({ permission: 'write_config' })
    .input(fastParse(SiteCreateInput))
    .mutation(async ({ ctx, input }) => {
      const site = await addSite(ctx, ctx.actor, input);
      return getSite(ctx, ctx.actor, site.id);
    }),
});
