import { API_PATHS } from '../../domain/endpoints.ts';
import { listSuggestions, submitSuggestion } from '../../services/suggestions.ts';
import { PROTECTED_ERRORS } from '../common.ts';
import { operationProcedure, router } from '../trpc.ts';
import { restOperation } from '../operations.ts';
import { SuggestionCreated, SuggestionCreateInput, SuggestionListInput, SuggestionListOutput } from './schemas.ts';

export const createOperation = restOperation({
  meta: {
    permission: 'suggest_fixes',
    successStatus: 201,
    openapi: {
      method: 'POST',
      path: API_PATHS.suggestions,
      tags: ['suggestions'],
      summary: 'Verbetervoorstel indienen ter beoordeling',
      protect: true,
      errorResponses: PROTECTED_ERRORS,
    },
  },
  input: SuggestionCreateInput,
  output: SuggestionCreated,
});

export const listOperation = restOperation({
  meta: {
    permission: 'suggest_fixes',
    openapi: {
      method: 'GET',
      path: API_PATHS.suggestions,
      tags: ['suggestions'],
      summary: 'Voorstellen met beoordelingsstatus weergeven',
      protect: true,
      errorResponses: PROTECTED_ERRORS,
    },
  },
  input: SuggestionListInput,
  output: SuggestionListOutput,
});

export const suggestionsRouter = router({
  create: operationProcedure(createOperation).mutation(async ({ ctx, input }) => ({
    suggestion: await submitSuggestion(ctx, ctx.actor, input),
    message: `Voorstel ontvangen: het team beoordeelt het en de status is te volgen via GET ${API_PATHS.suggestions}.`,
  })),

  list: operationProcedure(listOperation).query(({ ctx, input }) => listSuggestions(ctx, ctx.actor, input)),
});
