import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { appRouter } from '../routers/index.ts';
import { API_VERSION } from '../domain/vocabulary.ts';
import { OPENAPI_PROCEDURES } from '../routers/procedures.ts';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Ongeldig verzoek (ontbrekende of verkeerde parameters)',
  401: 'Niet geauthenticeerd (ontbrekende, ongeldige of ingetrokken sleutel)',
  403: 'Onvoldoende rechten voor deze actie',
  404: 'Niet gevonden',
  409: 'Conflict met wat al bestaat (bijvoorbeeld het maximum aantal webhooks)',
  413: 'Request body groter dan 1 MiB',
  415: 'Content-type is geen application/json',
  429: 'Limiet overschreden; wacht Retry-After seconden en probeer opnieuw',
  500: 'Interne serverfout',
};

const RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit': {
    description: 'Verzoeken per minuut voor deze sleutel (rate_limit)',
    schema: { type: 'integer' as const, minimum: 1 },
  },
  'x-ratelimit-remaining': {
    description: 'Resterende verzoeken in het huidige venster van een minuut',
    schema: { type: 'integer' as const, minimum: 0 },
  },
  'x-ratelimit-reset': {
    description: 'Seconden tot het venster opnieuw begint',
    schema: { type: 'integer' as const, minimum: 0 },
  },
};
const RETRY_AFTER = {
  'retry-after': {
    description: 'Seconden wachten voor een nieuwe poging',
    schema: { type: 'integer' as const, minimum: 1 },
  },
};

const ErrorSchema = {
  type: 'object' as const,
  required: ['error'],
  properties: { error: { type: 'string' as const, description: 'Nederlandstalige omschrijving van de fout' } },
  additionalProperties: false,
};

type Operation = { responses?: Record<string, unknown>; security?: unknown[]; requestBody?: unknown };

/** zod writes the safe-integer range on every integer; generators show it as an example, so drop it. */
function dropSafeIntegerBounds(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) dropSafeIntegerBounds(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum;
  if (schema.minimum === Number.MIN_SAFE_INTEGER) delete schema.minimum;
  Object.values(schema).forEach(dropSafeIntegerBounds);
}

/** A success answer whose body is sent with another media type than application/json. */
function withContentType(success: unknown, contentType: string | undefined): object {
  const answer = success as { content?: Record<string, unknown> };
  if (!contentType || !answer.content?.['application/json']) return answer;
  return { ...answer, content: { [contentType]: answer.content['application/json'] } };
}

/**
 * Every REST operation must be the one its procedure was built from: trpc-to-openapi names each
 * generated operation after its procedure (`scans.list` becomes `scans-list`), so an operation the
 * table pairs with another procedure, or with none, stops the server when it builds this document.
 */
export function assertOperationsMatchProcedures(
  doc: { paths?: unknown },
  operations: ReadonlyArray<{ name: string; method: string; path: string }>,
): void {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, { operationId?: string }> | undefined>;
  const wrong = operations.flatMap(({ name, method, path }) => {
    const id = paths[path]?.[method.toLowerCase()]?.operationId;
    return id === name.replace(/\./g, '-') ? [] : [`${name} (${method} ${path}: ${id ?? 'no procedure'})`];
  });
  if (wrong.length > 0) throw new Error(`REST operations that name no procedure of theirs: ${wrong.join(', ')}`);
}

/**
 * Generated from the routers by trpc-to-openapi, then corrected to what the REST facade really does:
 * 201 for creations, the `{ error }` body on every error status, Bearer security only where needed.
 */
function build(): OpenAPIObject {
  const doc = generateOpenApiDocument(appRouter, {
    title: 'Website Security Scanner Agent API',
    description:
      'REST-API voor agents: scans starten en lezen, bevindingen zoeken, voorstellen indienen, configuratie en webhooks. Authenticatie met `Authorization: Bearer <API_KEY>`. Rate limit per sleutel: `rate_limit` verzoeken per minuut.',
    // The API's version (api.version of /config), not the platform's release.
    version: API_VERSION,
    baseUrl: '/',
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'API-sleutel (sak_…)' } },
  });
  assertOperationsMatchProcedures(doc, OPENAPI_PROCEDURES);
  // trpc-to-openapi adds tRPC's error envelopes ("error.BAD_REQUEST" ...); REST answers { error } only.
  const schemas = Object.fromEntries(
    Object.entries(doc.components?.schemas ?? {}).filter(([name]) => !name.startsWith('error.')),
  );
  doc.components = { ...doc.components, schemas: { ...schemas, Error: ErrorSchema } };
  doc.info.license = { name: 'MIT', identifier: 'MIT' };
  for (const { path, method, meta } of OPENAPI_PROCEDURES) {
    const operation = (doc.paths?.[path] as Record<string, Operation> | undefined)?.[method.toLowerCase()];
    if (!operation) continue;
    const responses = operation.responses ?? {};
    const success = responses['200'];
    const status = String(meta.successStatus ?? 200);
    const corrected: Record<string, unknown> = {
      [status]: { ...withContentType(success, meta.responseContentType), headers: RATE_LIMIT_HEADERS },
    };
    const errors = Array.isArray(meta.openapi.errorResponses) ? meta.openapi.errorResponses : [];
    const statuses = new Set([...errors, ...(method === 'GET' || method === 'DELETE' ? [] : [413, 415])]);
    for (const code of [...statuses].sort()) {
      corrected[String(code)] = {
        description: ERROR_DESCRIPTIONS[code] ?? 'Fout',
        ...(code === 429 ? { headers: { ...RETRY_AFTER, ...RATE_LIMIT_HEADERS } } : {}),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    operation.responses = corrected;
    operation.security = meta.openapi.protect ? [{ bearerAuth: [] }] : [];
  }
  dropSafeIntegerBounds(doc);
  return doc;
}

let cached: Record<string, unknown> | null = null;

/** The document as the JSON the API serves, built once. */
export function openApiDocument(): Record<string, unknown> {
  cached ??= JSON.parse(JSON.stringify(build()));
  return cached!;
}
