import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { appRouter } from '../routers/index.ts';
import { PLATFORM_VERSION } from '../server/services/platform-config.ts';
import { openApiProcedures } from './procedures.ts';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Ongeldig verzoek (ontbrekende of verkeerde parameters)',
  401: 'Niet geauthenticeerd (ontbrekende, ongeldige of ingetrokken sleutel)',
  403: 'Onvoldoende rechten voor deze actie',
  404: 'Niet gevonden',
  413: 'Request body groter dan 1 MiB',
  415: 'Content-type is geen application/json',
  429: 'Limiet overschreden; wacht Retry-After seconden en probeer opnieuw',
  500: 'Interne serverfout',
};

const ErrorSchema = {
  type: 'object' as const,
  required: ['error'],
  properties: { error: { type: 'string' as const, description: 'Nederlandstalige omschrijving van de fout' } },
  additionalProperties: false,
};

type Operation = { responses?: Record<string, unknown>; security?: unknown[]; requestBody?: unknown };

/**
 * Generated from the routers by trpc-to-openapi, then corrected to what the REST facade really does:
 * 201 for creations, the `{ error }` body on every error status, Bearer security only where needed.
 */
function build(): OpenAPIObject {
  const doc = generateOpenApiDocument(appRouter, {
    title: 'Website Security Scanner Agent API',
    description:
      'REST-API voor agents: scans starten en lezen, bevindingen zoeken, voorstellen indienen, configuratie en webhooks. Authenticatie met `Authorization: Bearer <API_KEY>`. Rate limit per sleutel: `rate_limit` verzoeken per minuut.',
    version: PLATFORM_VERSION,
    baseUrl: '/',
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'API-sleutel (sak_…)' } },
  });
  doc.components = { ...doc.components, schemas: { ...doc.components?.schemas, Error: ErrorSchema } };
  for (const { path, method, meta } of openApiProcedures()) {
    const operation = (doc.paths?.[path] as Record<string, Operation> | undefined)?.[method.toLowerCase()];
    if (!operation) continue;
    const responses = operation.responses ?? {};
    const success = responses['200'];
    const status = String(meta.successStatus ?? 200);
    const corrected: Record<string, unknown> = { [status]: success };
    const errors = Array.isArray(meta.openapi.errorResponses) ? meta.openapi.errorResponses : [];
    const statuses = new Set([...errors, ...(method === 'GET' || method === 'DELETE' ? [] : [413, 415])]);
    for (const code of [...statuses].sort()) {
      corrected[String(code)] = {
        description: ERROR_DESCRIPTIONS[code] ?? 'Fout',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    operation.responses = corrected;
    operation.security = meta.openapi.protect ? [{ bearerAuth: [] }] : [];
  }
  return doc;
}

let cached: OpenAPIObject | null = null;

export function openApiDocument(): OpenAPIObject {
  cached ??= build();
  return cached;
}
