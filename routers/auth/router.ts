import { API_PATHS } from '../../domain/endpoints.ts';
import { validateKey } from '../../services/auth.ts';
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
    .mutation(async ({ ctx, input }) => ({ ...(await validateKey(ctx, input)), endpoints: ENDPOINTS })),
});
