import type { z } from 'zod';
import type { SuggestionCreateInput, SuggestionListInput } from '../routers/suggestions/schemas.ts';
import { insertSuggestion, listSuggestions as listSuggestionRows } from '../db/suggestions.ts';
import { assertPermission, type Actor } from '../domain/actor.ts';
import { isoNow, type ServiceDeps } from './deps.ts';
import { assertFeatureEnabled } from './feature-flags.ts';
import { pageOf } from './pagination.ts';
import { suggestionListItem } from './views.ts';

/** Stores a fix suggestion as pending for the team's review, with who submitted it. */
export async function submitSuggestion(deps: ServiceDeps, actor: Actor, input: z.infer<typeof SuggestionCreateInput>) {
  assertPermission(actor, 'suggest_fixes');
  await assertFeatureEnabled(deps.db, 'suggestions', actor.tenantId);
  const row = await insertSuggestion(deps.db, actor.tenantId, actor.actor, input, isoNow(deps));
  const { id, type, title, status, created_at } = suggestionListItem(row);
  return { id, type, title, status, created_at };
}

export async function listSuggestions(deps: ServiceDeps, actor: Actor, input: z.infer<typeof SuggestionListInput>) {
  assertPermission(actor, 'suggest_fixes');
  await assertFeatureEnabled(deps.db, 'suggestions', actor.tenantId);
  const { rows, total } = await listSuggestionRows(deps.db, actor.tenantId, input.status, input);
  return { suggestions: rows.map(suggestionListItem), pagination: pageOf(total, input) };
}
