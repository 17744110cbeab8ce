import { API_PATHS } from '../../domain/endpoints.ts';
import { SARIF_CONTENT_TYPE } from '../../scanner/sarif.ts';
import { getScan, getScanSarif, listScans, triggerScan } from '../../services/scans.ts';
import { scanCreatedView } from '../../services/views.ts';
import { PROTECTED_ERRORS, fastParse } from '../common.ts';
import { protectedProcedure, router } from '../trpc.ts';
import { SarifLog, ScanCreated, ScanDetail, ScanGetInput, ScanListInput, ScanListOutput, ScanTriggerInput } from './schemas.ts';

export const scansRouter = router({
  trigger: protectedProcedure
    .meta({
      permission: 'write_scans',
      successStatus: 201,
      openapi: { method: 'POST', path: API_PATHS.scan_trigger, tags: ['scans'], summary: 'Scan starten op een bestaande site', protect: true, errorResponses: [...PROTECTED_ERRORS, 404] },
    })
    .input(fastParse(ScanTriggerInput))
    .output(fastParse(ScanCreated))
    .mutation(async ({ ctx, input }) => scanCreatedView((await triggerScan(ctx, ctx.actor, input)).scan)),

  list: protectedProcedure
    .meta({
      permission: 'read_scans',
      openapi: { method: 'GET', path: API_PATHS.scans, tags: ['scans'], summary: 'Recente scans weergeven', protect: true, errorResponses: PROTECTED_ERRORS },
    })
    .input(fastParse(ScanListInput))
    .output(fastParse(ScanListOutput))
    .query(({ ctx, input }) => listScans(ctx, ctx.actor, { siteId: input.site_id, grade: input.grade, since: input.since, until: input.until }, input)),

  get: protectedProcedure
    .meta({
      permission: 'read_scans',
      openapi: { method: 'GET', path: API_PATHS.scan, tags: ['scans'], summary: 'Eén scan met zijn bevindingen', protect: true, errorResponses: [...PROTECTED_ERRORS, 404] },
    })
    .input(fastParse(ScanGetInput))
    .output(fastParse(ScanDetail))
    .query(({ ctx, input }) => getScan(ctx, ctx.actor, input.scan_id)),

  sarif: protectedProcedure
    .meta({
      permission: 'read_scans',
      responseContentType: SARIF_CONTENT_TYPE,
      openapi: {
        method: 'GET',
        path: API_PATHS.scan_sarif,
        tags: ['scans'],
        summary: 'Eén scan als SARIF 2.1.0-log (voor GitHub code scanning en andere CI)',
        description: 'Eén regel per bevindingstype en één resultaat per bevinding, met security-severity en stabiele partialFingerprints. Content-Type: application/sarif+json.',
        protect: true,
        errorResponses: [...PROTECTED_ERRORS, 404],
      },
    })
    .input(fastParse(ScanGetInput))
    .output(fastParse(SarifLog))
    .query(({ ctx, input }) => getScanSarif(ctx, ctx.actor, input.scan_id, `${ctx.publicOrigin()}${API_PATHS.docs}`)),
});
