import { enqueueEvents } from '../db/outbox.ts';
import { findSuggestion, reviewQueue as reviewQueueRows, reviewSuggestion } from '../db/suggestions.ts';
import type { DB } from '../db/database.ts';
import { NotFound } from '../domain/errors.ts';
import type { ReviewStatus, SuggestionStatus } from '../domain/vocabulary.ts';
import { assertStaff, type UserPrincipal } from './accounts.ts';
import { isoNow, type ServiceDeps } from './deps.ts';
import { pageOf, type Page } from './pagination.ts';
import { suggestionListItem } from './views.ts';

/**
 * Records the team's review of a suggestion; suggestion_reviewed goes to the tenant's webhooks in
 * the same transaction. The staff's dashboard and the admin CLI both come here.
 */
export async function recordReview(
  db: DB,
  suggestionId: string,
  status: ReviewStatus,
  notes: string | null,
  now: string,
) {
  if (!(await findSuggestion(db, suggestionId))) throw new NotFound('Suggestie');
  return db.transaction().execute(async (trx) => {
    const row = (await reviewSuggestion(trx, suggestionId, status, notes, now))!;
    const item = suggestionListItem(row);
    await enqueueEvents(trx, row.tenant_id, [{ type: 'suggestion_reviewed', data: item }], now);
    return item;
  });
}

/** Suggestions of every tenant for the service's team, oldest pending first. */
export async function reviewQueue(
  deps: ServiceDeps,
  staff: UserPrincipal,
  input: Page & { status?: SuggestionStatus },
) {
  assertStaff(staff);
  const page = input;
  const { rows, total } = await reviewQueueRows(deps.db, input.status, page);
  return {
    suggestions: rows.map((row) => ({
      ...suggestionListItem(row),
      tenant_id: row.tenant_id,
      tenant_name: row.tenant_name,
      diff: row.diff,
      metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, unknown>),
    })),
    pagination: pageOf(total, page),
  };
}

export async function reviewAsStaff(
  deps: ServiceDeps,
  staff: UserPrincipal,
  input: { suggestion_id: string; status: ReviewStatus; notes?: string | null },
) {
  assertStaff(staff);
  return recordReview(deps.db, input.suggestion_id, input.status, input.notes?.trim() || null, isoNow(deps));
}
