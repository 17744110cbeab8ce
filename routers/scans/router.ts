import { API_PATHS } from '../../domain/endpoints.ts';
import { SARIF_CONTENT_TYPE } from '../../scanner/report/sarif.ts';
import { getScan, getScanSarif, listScans, triggerScan } from '../../services/scans.ts';
import { getScanChanges, scanChangeList } from '../../services/scan-changes.ts';
import { scanCreatedView } from '../../services/views.ts';
import { PROTECTED_ERRORS } from '../common.ts';
import { operationProcedure, router, userProcedure } from '../trpc.ts';
import { restOperation } from '../operations.ts';
import {
  SarifLog,
  ScanChanges,
  ScanChangesInput,
  ScanCreated,
  ScanDetail,
  ScanGetInput,
  ScanListInput,
  ScanListOutput,
  ScanTriggerInput,
} from './schemas.ts';

export const triggerOperation = restOperation({
  meta: {
    permission: 'write_scans',
    successStatus: 201,
    openapi: {
      method: 'POST',
      path: API_PATHS.scan_trigger,
      tags: ['scans'],
      summary: 'Scan starten op een bestaande site',
      protect: true,
      errorResponses: [...PROTECTED_ERRORS, 404],
    },
  },
  input: ScanTriggerInput,
  output: ScanCreated,
});

export const listOperation = restOperation({
  meta: {
    permission: 'read_scans',
    openapi: {
      method: 'GET',
      path: API_PATHS.scans,
      tags: ['scans'],
      summary: 'Recente scans weergeven',
      protect: true,
      errorResponses: PROTECTED_ERRORS,
    },
  },
  input: ScanListInput,
  output: ScanListOutput,
});

export const getOperation = restOperation({
  meta: {
    permission: 'read_scans',
    openapi: {
      method: 'GET',
      path: API_PATHS.scan,
      tags: ['scans'],
      summary: 'Eén scan met zijn bevindingen',
      protect: true,
      errorResponses: [...PROTECTED_ERRORS, 404],
    },
  },
  input: ScanGetInput,
  output: ScanDetail,
});

export const sarifOperation = restOperation({
  meta: {
    permission: 'read_scans',
    responseContentType: SARIF_CONTENT_TYPE,
    openapi: {
      method: 'GET',
      path: API_PATHS.scan_sarif,
      tags: ['scans'],
      summary: 'Eén scan als SARIF 2.1.0-log (voor GitHub code scanning en andere CI)',
      description:
        'Eén regel per bevindingstype en één resultaat per bevinding, met security-severity en stabiele partialFingerprints. Content-Type: application/sarif+json.',
      protect: true,
      errorResponses: [...PROTECTED_ERRORS, 404],
    },
  },
  input: ScanGetInput,
  output: SarifLog,
});

export const changesOperation = restOperation({
  meta: {
    permission: 'read_scans',
    openapi: {
      method: 'GET',
      path: API_PATHS.scan_changes,
      tags: ['scans'],
      summary: 'Wat een scan veranderde: nieuw, terug, opgelost, andere ernst, verergerd',
      description:
        'Zonder against: ten opzichte van de vorige scan van de site, zoals vastgelegd bij het opslaan. Met against: ten opzichte van elke andere scan van dezelfde site.',
      protect: true,
      errorResponses: [...PROTECTED_ERRORS, 404],
    },
  },
  input: ScanChangesInput,
  output: ScanChanges,
});

export const scansRouter = router({
  trigger: operationProcedure(triggerOperation).mutation(async ({ ctx, input }) =>
    scanCreatedView((await triggerScan(ctx, ctx.actor, input)).scan),
  ),

  list: operationProcedure(listOperation).query(({ ctx, input }) => listScans(ctx, ctx.actor, input)),

  get: operationProcedure(getOperation).query(({ ctx, input }) => getScan(ctx, ctx.actor, input)),

  changes: operationProcedure(changesOperation).query(({ ctx, input }) => getScanChanges(ctx, ctx.actor, input)),

  /** Dashboard only: "Wat is er veranderd": a scan's changes with each finding's title. */
  changeList: userProcedure
    .meta({ permission: 'read_scans' })
    .input(ScanGetInput)
    .query(({ ctx, input }) => scanChangeList(ctx, ctx.actor, input)),

  sarif: operationProcedure(sarifOperation).query(({ ctx, input }) => getScanSarif(ctx, ctx.actor, input)),
});
