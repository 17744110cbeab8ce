import { insertSuggestion, listSuggestions } from '../../db/suggestions.ts';
import { suggestionListItem } from '../../services/suggestions.ts';
import { pagination, PROTECTED_ERRORS } from '../common.ts';
import { featureProcedure, router } from '../trpc.ts';
import { SuggestionCreated, SuggestionCreateInput, SuggestionListInput, SuggestionListOutput } from './schemas.ts';

const suggestionsEnabled = featureProcedure('suggestions');

export const suggestionsRouter = router({
  create: suggestionsEnabled
    .meta({
      permission: 'suggest_fixes',
      successStatus: 201,
      openapi: { method: 'POST', path: '/api/agent/suggestions', tags: ['suggestions'], summary: 'Verbetervoorstel indienen ter beoordeling', protect: true, errorResponses: PROTECTED_ERRORS },
    })
    .input(SuggestionCreateInput)
    .output(SuggestionCreated)
    .mutation(async ({ ctx, input }) => {
      const row = await insertSuggestion(ctx.db, ctx.principal.tenantId, ctx.principal.keyId, input);
      const { id, type, title, status, created_at } = suggestionListItem(row);
      return {
        suggestion: { id, type, title, status, created_at },
        message: 'Voorstel ontvangen: het team beoordeelt het en de status is te volgen via GET /api/agent/suggestions.',
      };
    }),

  list: suggestionsEnabled
    .meta({
      permission: 'suggest_fixes',
      openapi: { method: 'GET', path: '/api/agent/suggestions', tags: ['suggestions'], summary: 'Voorstellen met beoordelingsstatus weergeven', protect: true, errorResponses: PROTECTED_ERRORS },
    })
    .input(SuggestionListInput)
    .output(SuggestionListOutput)
    .query(async ({ ctx, input }) => {
      const { rows, total } = await listSuggestions(ctx.db, ctx.principal.tenantId, input.status, input);
      return { suggestions: rows.map(suggestionListItem), pagination: pagination(total, input.limit, input.offset) };
    }),
});
