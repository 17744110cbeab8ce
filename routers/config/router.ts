import { API_PATHS } from '../../domain/endpoints.ts';
import { platformConfiguration } from '../../services/platform-config.ts';
import { NoInput, PROTECTED_ERRORS, fastParse } from '../common.ts';
import { protectedProcedure, router } from '../trpc.ts';
import { ConfigOutput } from './schemas.ts';

export const configRouter = router({
  get: protectedProcedure
    .meta({
      permission: 'read_config',
      openapi: { method: 'GET', path: API_PATHS.config, tags: ['config'], summary: 'Platformconfiguratie lezen', protect: true, errorResponses: PROTECTED_ERRORS },
    })
    .input(fastParse(NoInput))
    .output(fastParse(ConfigOutput))
    .query(({ ctx }) => platformConfiguration(ctx, ctx.actor)),
});
