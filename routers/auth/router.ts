import { TRPCError } from '@trpc/server';
import { authenticate } from '../../services/auth.ts';
import { ERRORS } from '../../domain/errors.ts';
import { publicProcedure, router } from '../trpc.ts';
import { AuthInput, AuthOutput, ENDPOINTS } from './schemas.ts';

export const authRouter = router({
  validate: publicProcedure
    .meta({
      openapi: { method: 'POST', path: '/api/agent/auth', tags: ['auth'], summary: 'API-sleutel valideren', protect: false, errorResponses: [400, 401, 429, 500] },
    })
    .input(AuthInput)
    .output(AuthOutput)
    .mutation(async ({ ctx, input }) => {
      const principal = await authenticate(ctx.db, input.api_key);
      if (!principal) throw new TRPCError({ code: 'UNAUTHORIZED', message: ERRORS.invalidKey });
      return {
        authenticated: true as const,
        agent: { key_id: principal.keyId, name: principal.keyName, permissions: principal.permissions, rate_limit: principal.rateLimit },
        endpoints: ENDPOINTS,
      };
    }),
});
