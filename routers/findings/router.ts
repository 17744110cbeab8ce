import { API_PATHS } from '../../domain/endpoints.ts';
import { searchFindings } from '../../services/findings.ts';
import { PROTECTED_ERRORS } from '../common.ts';
import { protectedProcedure, router } from '../trpc.ts';
import { FindingListInput, FindingListOutput } from './schemas.ts';

export const findingsRouter = router({
  list: protectedProcedure
    .meta({
      permission: 'read_findings',
      openapi: { method: 'GET', path: API_PATHS.findings, tags: ['findings'], summary: 'Bevindingen zoeken over alle scans', protect: true, errorResponses: PROTECTED_ERRORS },
    })
    .input(FindingListInput)
    .output(FindingListOutput)
    .query(({ ctx, input }) =>
      searchFindings(ctx, ctx.actor, { severity: input.severity, category: input.category, status: input.status, siteId: input.site_id, search: input.search }, input),
    ),
});
