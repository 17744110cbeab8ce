import { z } from 'zod';
import { parseWebUrl, WEB_URL_PROBLEMS, type WebScheme } from '../scanner/net/web-url.ts';
import type { SeverityCounts as SeverityCountsOf } from '../domain/vocabulary.ts';

// C0 control characters and DEL make no sense in any text field and break what stores or searches
// them (an FTS5 phrase ends at NUL); tab, CR and LF are allowed only where text spans lines.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this pattern's job
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this pattern's job
const CONTROL_CHARACTERS_BUT_WHITESPACE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** A text field that refuses control characters with a 400; `multiline` allows tab, CR and LF. */
export const text = (options: { multiline?: boolean } = {}) =>
  z
    .string()
    .refine((value) => !(options.multiline ? CONTROL_CHARACTERS_BUT_WHITESPACE : CONTROL_CHARACTERS).test(value), {
      message: options.multiline
        ? 'Mag geen stuurtekens bevatten (behalve tab en regeleinden)'
        : 'Mag geen stuurtekens (zoals NUL of regeleinden) bevatten',
    });

/**
 * A URL the platform will connect to (a site, a scan override, a webhook receiver): parsed by the
 * one parser, refused with its one Dutch wording. `schemes` limits it to https for receivers.
 */
export const webUrl = (schemes: readonly WebScheme[] = ['http:', 'https:']) =>
  text()
    .trim()
    .min(1)
    .max(2048)
    .superRefine((value, ctx) => {
      const { problem } = parseWebUrl(value, schemes);
      if (problem) ctx.addIssue({ code: 'custom', message: WEB_URL_PROBLEMS[problem](schemes) });
    });

/** Free-form JSON bounds: deep enough for any real context, shallow enough to store and serialise. */
export const JSON_LIMITS = { maxDepth: 32, maxBytes: 64 * 1024 } as const;

/** The nesting depth of a parsed JSON value, counted without recursion so no input can overflow the stack. */
export function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > JSON_LIMITS.maxDepth) return deepest;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** A free-form JSON object within JSON_LIMITS. */
export const JsonObject = z
  .record(z.string(), z.unknown())
  // abort: serialising a value nested too deeply would overflow the stack, so the size check never sees it.
  .refine((value) => jsonDepth(value) <= JSON_LIMITS.maxDepth, {
    message: `Te diep genest: maximaal ${JSON_LIMITS.maxDepth} niveaus`,
    abort: true,
  })
  .refine((value) => Buffer.byteLength(JSON.stringify(value)) <= JSON_LIMITS.maxBytes, {
    message: `Te groot: maximaal ${JSON_LIMITS.maxBytes / 1024} KiB als JSON`,
  });

/** An id the caller sends: checked against the UUID pattern. */
export const Uuid = z.uuid().meta({ description: 'UUID' });

/**
 * An id in an answer. The service makes every id itself (UUID v7), so an answer checks only that it
 * is a string; the document still describes it as a UUID (in Uuid's key order, byte for byte).
 */
export const Id = z.string().meta({ format: 'uuid', pattern: z.regexes.uuid().source, description: 'UUID' });

/** A required id: Swagger UI's "Try it out" fills it with a realistic value (optional filters get none, so they filter nothing away). */
export const RequiredUuid = z.uuid().meta({ description: 'UUID', example: '3f2b8c1e-9a4d-4e2f-8b1a-2c3d4e5f6a7b' });

/** Counts are never negative; documenting the bound keeps generators from showing -9007199254740991. */
export const Count = z.number().int().min(0);
export const Score = z.number().int().min(0).max(100);

/** Findings per severity, lowercase keys (docs/spec.md 2.3 `counts`, 4.4 `summary`). */
export const SeverityCounts = z
  // Keyed by the domain's type: a severity added there and missing here fails the type check (checked
  // on the shape, which costs the compiler a fraction of comparing the whole zod type).
  .object({ critical: Count, high: Count, medium: Count, low: Count } satisfies Record<
    keyof SeverityCountsOf,
    typeof Count
  >)
  .meta({ id: 'SeverityCounts' });

export const Timestamp = z
  .string()
  .meta({ description: 'ISO 8601 UTC met milliseconden', example: '2026-11-22T10:15:30.123Z' });

/** An ISO 8601 moment from a query string, normalised to UTC with milliseconds for comparison. */
export const IsoMoment = z
  .string()
  .refine(
    (value) =>
      /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) &&
      !Number.isNaN(Date.parse(value)),
    {
      message: 'Ongeldig tijdstip: verwacht ISO 8601, bijvoorbeeld 2026-11-22T10:00:00Z',
    },
  )
  .transform((value) => new Date(value).toISOString())
  .meta({ description: 'ISO 8601-tijdstip, bijvoorbeeld 2026-11-01T00:00:00Z' });

/** limit/offset query parameters; values outside the range are rejected, never clamped. REST query strings are coerced, typed clients send numbers (the input type is number). */
export function pageParams(defaultLimit: number, maxLimit: number) {
  return {
    limit: z.coerce
      .number<number>()
      .int()
      .min(1)
      .max(maxLimit)
      .default(defaultLimit)
      .meta({ description: `Aantal resultaten (1-${maxLimit}, standaard ${defaultLimit})` }),
    offset: z.coerce
      .number<number>()
      .int()
      .min(0)
      .default(0)
      .meta({ description: 'Aantal over te slaan resultaten (standaard 0)' }),
  };
}

export const Pagination = z
  .object({
    total: Count,
    limit: Count.min(1).max(200),
    offset: Count,
    has_more: z.boolean(),
  })
  .meta({ id: 'Pagination' });

export const Message = z.object({ message: z.string() });

/** The REST error statuses of a protected endpoint, for the document. */
export const PROTECTED_ERRORS = [400, 401, 403, 429, 500];

/** Input of a procedure without parameters; tRPC clients may omit it. */
export const NoInput = z.object({}).prefault({});

export interface FieldIssue {
  /** The field, dotted ("metadata.a"); empty for the input as a whole. */
  path: string;
  message: string;
}

/** The field issues of a validation error (zod's, as tRPC passes it on as the cause). */
export function fieldIssues(cause: unknown): FieldIssue[] {
  const issues = (cause as { issues?: Array<{ path: PropertyKey[]; message: string }> } | undefined)?.issues;
  return Array.isArray(issues)
    ? issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }))
    : [];
}

/** The one Dutch sentence REST and /trpc both answer for invalid input. */
export const invalidInputMessage = (issues: FieldIssue[]) =>
  `Ongeldig verzoek: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`;
