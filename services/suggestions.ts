import { insertSuggestion, listSuggestions as listSuggestionRows, type NewSuggestion } from '../db/suggestions.ts';
import { assertPermission, type Actor } from '../domain/actor.ts';
import type { SuggestionStatus } from '../domain/vocabulary.ts';
import { isoNow, type ServiceDeps } from './deps.ts';
import { assertFeatureEnabled } from './feature-flags.ts';
import { pageOf, type Page } from './pagination.ts';
import { suggestionListItem } from './views.ts';

/** Stores a fix suggestion as pending for the team's review, with who submitted it. */
export async function submitSuggestion(deps: ServiceDeps, actor: Actor, input: NewSuggestion) {
  assertPermission(actor, 'suggest_fixes');
  await assertFeatureEnabled(deps.db, 'suggestions', actor.tenantId);
  const row = await insertSuggestion(deps.db, actor.tenantId, actor.actor, input, isoNow(deps));
  const { id, type, title, status, created_at } = suggestionListItem(row);
  return { id, type, title, status, created_at };
}

export async function listSuggestions(deps: ServiceDeps, actor: Actor, input: Page & { status?: SuggestionStatus }) {
  assertPermission(actor, 'suggest_fixes');
  await assertFeatureEnabled(deps.db, 'suggestions', actor.tenantId);
  const { rows, total } = await listSuggestionRows(deps.db, actor.tenantId, input.status, input);
  return { suggestions: rows.map(suggestionListItem), pagination: pageOf(total, input) };
}
