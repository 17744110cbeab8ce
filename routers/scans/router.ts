import type { z } from 'zod';
import { findingsOfScan } from '../../db/findings.ts';
import { findScan, listScans } from '../../db/scans.ts';
import { notFound } from '../../domain/errors.ts';
import { triggerScan } from '../../services/scans.ts';
import { failedChecksOf, scanCreatedView } from '../../services/views.ts';
import { pagination, PROTECTED_ERRORS } from '../common.ts';
import { protectedProcedure, router } from '../trpc.ts';
import { ScanCreated, ScanDetail, ScanGetInput, ScanListInput, ScanListOutput, ScanTriggerInput } from './schemas.ts';

export const scansRouter = router({
  trigger: protectedProcedure
    .meta({
      permission: 'write_scans',
      successStatus: 201,
      openapi: { method: 'POST', path: '/api/agent/scan', tags: ['scans'], summary: 'Scan starten op een bestaande site', protect: true, errorResponses: [...PROTECTED_ERRORS, 404] },
    })
    .input(ScanTriggerInput)
    .output(ScanCreated)
    .mutation(async ({ ctx, input }) => {
      const { scan } = await triggerScan(ctx, ctx.principal, input);
      return scanCreatedView(scan);
    }),

  list: protectedProcedure
    .meta({
      permission: 'read_scans',
      openapi: { method: 'GET', path: '/api/agent/scans', tags: ['scans'], summary: 'Recente scans weergeven', protect: true, errorResponses: PROTECTED_ERRORS },
    })
    .input(ScanListInput)
    .output(ScanListOutput)
    .query(async ({ ctx, input }) => {
      const { rows, total } = await listScans(ctx.db, ctx.principal.tenantId, { siteId: input.site_id, grade: input.grade, since: input.since, until: input.until }, input);
      const scans = rows.map(({ url: _url, failed_checks: _failed, ...item }) => item) as z.infer<typeof ScanListOutput>['scans'];
      return { scans, pagination: pagination(total, input.limit, input.offset) };
    }),

  get: protectedProcedure
    .meta({
      permission: 'read_scans',
      openapi: { method: 'GET', path: '/api/agent/scans/{scan_id}', tags: ['scans'], summary: 'Eén scan met zijn bevindingen', protect: true, errorResponses: [...PROTECTED_ERRORS, 404] },
    })
    .input(ScanGetInput)
    .output(ScanDetail)
    .query(async ({ ctx, input }) => {
      const scan = await findScan(ctx.db, ctx.principal.tenantId, input.scan_id);
      if (!scan) throw notFound('Scan');
      const findings = await findingsOfScan(ctx.db, ctx.principal.tenantId, scan.id);
      return { ...scan, failed_checks: failedChecksOf(scan), findings } as z.infer<typeof ScanDetail>;
    }),
});
