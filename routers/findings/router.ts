import { API_PATHS } from '../../domain/endpoints.ts';
import { findingDetail, getFinding, searchFindings } from '../../services/findings.ts';
import {
  acceptanceRegister,
  changeFindingStatus,
  extendAcceptance,
  findingStatusHistory,
  riskOwners,
} from '../../services/finding-status.ts';
import { PROTECTED_ERRORS } from '../common.ts';
import { operationProcedure, router, userProcedure } from '../trpc.ts';
import { restOperation } from '../operations.ts';
import {
  FindingGetInput,
  FindingHistoryInput,
  FindingListInput,
  FindingListOutput,
  FindingStatusInput,
  FindingDetail,
  FindingExtendInput,
} from './schemas.ts';

export const listOperation = restOperation({
  meta: {
    permission: 'read_findings',
    openapi: {
      method: 'GET',
      path: API_PATHS.findings,
      tags: ['findings'],
      summary: 'Bevindingen zoeken over alle scans',
      protect: true,
      errorResponses: PROTECTED_ERRORS,
    },
  },
  input: FindingListInput,
  output: FindingListOutput,
});

export const getOperation = restOperation({
  meta: {
    permission: 'read_findings',
    openapi: {
      method: 'GET',
      path: API_PATHS.finding,
      tags: ['findings'],
      summary: 'Eén bevinding met kopieerbare oplossingen',
      description:
        'De bevinding zoals de lijst haar toont, met fixes: per server en platform een fragment dat werkt zoals gegeven, die van de gevonden server eerst.',
      protect: true,
      errorResponses: [...PROTECTED_ERRORS, 404],
    },
  },
  input: FindingGetInput,
  output: FindingDetail,
});

export const findingsRouter = router({
  list: operationProcedure(listOperation).query(({ ctx, input }) => searchFindings(ctx, ctx.actor, input)),

  /** Dashboard only: a person triages a finding; who, when and why are recorded. */
  setStatus: userProcedure
    .meta({ permission: 'write_config' })
    .input(FindingStatusInput)
    .mutation(({ ctx, input }) => changeFindingStatus(ctx, ctx.actor, input)),

  /** Dashboard only: a new end (and optionally reason or owner) for an accepted risk. */
  extendAcceptance: userProcedure
    .meta({ permission: 'write_config' })
    .input(FindingExtendInput)
    .mutation(({ ctx, input }) => extendAcceptance(ctx, ctx.actor, input)),

  /** Dashboard only: who can own an accepted risk. */
  owners: userProcedure.meta({ permission: 'write_config' }).query(({ ctx }) => riskOwners(ctx, ctx.actor)),

  /** Dashboard only: the tenant's accepted risks still counting, soonest end first. */
  acceptances: userProcedure
    .meta({ permission: 'read_findings' })
    .query(({ ctx }) => acceptanceRegister(ctx, ctx.actor)),

  get: operationProcedure(getOperation).query(({ ctx, input }) => getFinding(ctx, ctx.actor, input)),
  /** Dashboard only: one finding's page (the finding, its history, the scans that saw it, suggestions naming it). */
  page: userProcedure
    .meta({ permission: 'read_findings' })
    .input(FindingGetInput)
    .query(({ ctx, input }) => findingDetail(ctx, ctx.actor, input)),

  /** Dashboard only: the recorded status changes of some findings, newest first. */
  history: userProcedure
    .meta({ permission: 'read_findings' })
    .input(FindingHistoryInput)
    .query(({ ctx, input }) => findingStatusHistory(ctx, ctx.actor, input)),
});
