import type { SuggestionRow } from '../db/suggestions.ts';
import type { SuggestionStatus, SuggestionType } from '../domain/vocabulary.ts';

/** The list item of SPEC 2.5: optional fields appear only when they have a value. */
export function suggestionListItem(row: SuggestionRow) {
  return {
    id: row.id,
    type: row.type as SuggestionType,
    title: row.title,
    description: row.description,
    ...(row.file_path === null ? {} : { file_path: row.file_path }),
    status: row.status as SuggestionStatus,
    ...(row.review_notes === null ? {} : { review_notes: row.review_notes }),
    ...(row.reviewed_at === null ? {} : { reviewed_at: row.reviewed_at }),
    created_at: row.created_at,
  };
}
