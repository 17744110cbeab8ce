import type { z } from 'zod';
import { listFindings } from '../../db/findings.ts';
import { pagination, PROTECTED_ERRORS } from '../common.ts';
import { protectedProcedure, router } from '../trpc.ts';
import { FindingListInput, FindingListOutput } from './schemas.ts';

export const findingsRouter = router({
  list: protectedProcedure
    .meta({
      permission: 'read_findings',
      openapi: { method: 'GET', path: '/api/agent/findings', tags: ['findings'], summary: 'Bevindingen zoeken over alle scans', protect: true, errorResponses: PROTECTED_ERRORS },
    })
    .input(FindingListInput)
    .output(FindingListOutput)
    .query(async ({ ctx, input }) => {
      const { rows, summary, total } = await listFindings(
        ctx.db,
        ctx.principal.tenantId,
        { severity: input.severity, category: input.category, status: input.status, siteId: input.site_id, search: input.search },
        input,
      );
      return { findings: rows as z.infer<typeof FindingListOutput>['findings'], summary, pagination: pagination(total, input.limit, input.offset) };
    }),
});
