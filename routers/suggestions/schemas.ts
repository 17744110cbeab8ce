import { z } from 'zod';
import { SUGGESTION_STATUSES, SUGGESTION_TYPES } from '../../domain/vocabulary.ts';
import { Id, JSON_LIMITS, JsonObject, pageParams, Pagination, text, Timestamp } from '../common.ts';

export const SuggestionCreateInput = z.object({
  type: z.enum(SUGGESTION_TYPES),
  title: text().trim().min(5).max(200),
  description: text({ multiline: true }).trim().min(10).max(20_000),
  diff: text({ multiline: true })
    .max(500_000)
    .optional()
    .meta({ description: 'Unified diff (wordt opgeslagen, niet teruggegeven)' }),
  file_path: text().min(1).max(1024).optional(),
  metadata: JsonObject.optional().meta({
    description: `Extra JSON-context (wordt opgeslagen, niet teruggegeven); maximaal ${JSON_LIMITS.maxDepth} niveaus diep en ${JSON_LIMITS.maxBytes / 1024} KiB`,
  }),
});

export const SuggestionCreated = z.object({
  suggestion: z.object({
    id: Id,
    type: z.enum(SUGGESTION_TYPES),
    title: z.string(),
    status: z.enum(SUGGESTION_STATUSES),
    created_at: Timestamp,
  }),
  message: z.string(),
});

export const SuggestionListInput = z
  .object({
    status: z.enum(SUGGESTION_STATUSES).optional(),
    ...pageParams(20, 100),
  })
  .prefault({});

export const SuggestionListItem = z
  .object({
    id: Id,
    type: z.enum(SUGGESTION_TYPES),
    title: z.string(),
    description: z.string(),
    file_path: z.string().optional(),
    status: z.enum(SUGGESTION_STATUSES),
    review_notes: z.string().optional(),
    reviewed_at: Timestamp.optional(),
    created_at: Timestamp,
  })
  .meta({ id: 'Suggestion' });

export const SuggestionListOutput = z.object({ suggestions: z.array(SuggestionListItem), pagination: Pagination });
