import { z } from 'zod';

export const Uuid = z.uuid().meta({ description: 'UUID', example: '3f2b8c1e-9a4d-4e2f-8b1a-2c3d4e5f6a7b' });

export const Timestamp = z.string().meta({ description: 'ISO 8601 UTC met milliseconden', example: '2026-11-22T10:15:30.123Z' });

/** An ISO 8601 moment from a query string, normalised to UTC with milliseconds for comparison. */
export const IsoMoment = z
  .string()
  .refine((value) => /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) && !Number.isNaN(Date.parse(value)), {
    message: 'Ongeldig tijdstip: verwacht ISO 8601, bijvoorbeeld 2026-11-22T10:00:00Z',
  })
  .transform((value) => new Date(value).toISOString())
  .meta({ description: 'ISO 8601-tijdstip', example: '2026-11-01T00:00:00Z' });

/** limit/offset query parameters; values outside the range are rejected, never clamped. */
export function pageParams(defaultLimit: number, maxLimit: number) {
  return {
    limit: z.coerce.number().int().min(1).max(maxLimit).default(defaultLimit).meta({ description: `Aantal resultaten (1-${maxLimit}, standaard ${defaultLimit})` }),
    offset: z.coerce.number().int().min(0).default(0).meta({ description: 'Aantal over te slaan resultaten (standaard 0)' }),
  };
}

export const Pagination = z.object({
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  has_more: z.boolean(),
});

export function pagination(total: number, limit: number, offset: number): z.infer<typeof Pagination> {
  return { total, limit, offset, has_more: offset + limit < total };
}

export const Message = z.object({ message: z.string() });

/** The REST error statuses of a protected endpoint, for the document. */
export const PROTECTED_ERRORS = [400, 401, 403, 429, 500];

/** Input of a procedure without parameters; tRPC clients may omit it. */
export const NoInput = z.object({}).prefault({});
