import { ERRORS, Unauthenticated } from '../../domain/errors.ts';
import { API_PATHS } from '../../domain/endpoints.ts';
import { authenticateKey } from '../../services/auth.ts';
import { publicProcedure, router } from '../trpc.ts';
import { restOperation } from '../operations.ts';
import { AuthInput, AuthOutput, ENDPOINTS } from './schemas.ts';

export const validateOperation = restOperation({
  meta: {
    openapi: {
      method: 'POST',
      path: API_PATHS.auth,
      tags: ['auth'],
      summary: 'API-sleutel valideren',
      protect: false,
      errorResponses: [400, 401, 429, 500],
    },
  },
  input: AuthInput,
  output: AuthOutput,
});

export const authRouter = router({
  validate: publicProcedure
    .meta(validateOperation.meta)
    .input(validateOperation.input)
    .output(validateOperation.output)
    .mutation(async ({ ctx, input }) => {
      const principal = await authenticateKey(ctx.db, input.api_key);
      if (!principal) throw new Unauthenticated(ERRORS.invalidKey);
      return {
        authenticated: true as const,
        agent: {
          key_id: principal.actor.id,
          name: principal.keyName,
          permissions: [...principal.permissions],
          rate_limit: principal.rateLimit,
        },
        endpoints: ENDPOINTS,
      };
    }),
});
