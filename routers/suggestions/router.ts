import { API_PATHS } from '../../domain/endpoints.ts';
import { listSuggestions, submitSuggestion } from '../../services/suggestions.ts';
import { PROTECTED_ERRORS, fastParse } from '../common.ts';
import { protectedProcedure, router } from '../trpc.ts';
import { SuggestionCreated, SuggestionCreateInput, SuggestionListInput, SuggestionListOutput } from './schemas.ts';

export const suggestionsRouter = router({
  create: protectedProcedure
    .meta({
      permission: 'suggest_fixes',
      successStatus: 201,
      openapi: { method: 'POST', path: API_PATHS.suggestions, tags: ['suggestions'], summary: 'Verbetervoorstel indienen ter beoordeling', protect: true, errorResponses: PROTECTED_ERRORS },
    })
    .input(fastParse(SuggestionCreateInput))
    .output(fastParse(SuggestionCreated))
    .mutation(async ({ ctx, input }) => ({
      suggestion: await submitSuggestion(ctx, ctx.actor, input),
      message: `Voorstel ontvangen: het team beoordeelt het en de status is te volgen via GET ${API_PATHS.suggestions}.`,
    })),

  list: protectedProcedure
    .meta({
      permission: 'suggest_fixes',
      openapi: { method: 'GET', path: API_PATHS.suggestions, tags: ['suggestions'], summary: 'Voorstellen met beoordelingsstatus weergeven', protect: true, errorResponses: PROTECTED_ERRORS },
    })
    .input(fastParse(SuggestionListInput))
    .output(fastParse(SuggestionListOutput))
    .query(({ ctx, input }) => listSuggestions(ctx, ctx.actor, input.status, input)),
});
