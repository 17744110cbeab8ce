import { API_PATHS } from '../../domain/endpoints.ts';
import { serviceConfiguration } from '../../services/service-configuration.ts';
import { NoInput, PROTECTED_ERRORS } from '../common.ts';
import { operationProcedure, router } from '../trpc.ts';
import { restOperation } from '../operations.ts';
import { ConfigOutput } from './schemas.ts';

export const getOperation = restOperation({
  meta: {
    permission: 'read_config',
    openapi: {
      method: 'GET',
      path: API_PATHS.config,
      tags: ['config'],
      summary: 'Platformconfiguratie lezen',
      protect: true,
      errorResponses: PROTECTED_ERRORS,
    },
  },
  input: NoInput,
  output: ConfigOutput,
});

export const configRouter = router({
  get: operationProcedure(getOperation).query(({ ctx }) => serviceConfiguration(ctx, ctx.actor)),
});
