import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';

/** Dutch texts of the API's errors, in one place. */
export const ERRORS = {
  unauthorized: 'Niet geauthenticeerd: ontbrekende, ongeldige of ingetrokken API-sleutel.',
  invalidKey: 'Ongeldige of inactieve API-sleutel.',
  forbidden: (permission: string) => `Onvoldoende rechten: deze API-sleutel mist de permissie ${permission}.`,
  notFound: (what: string) => `${what} niet gevonden.`,
  routeNotFound: 'Endpoint niet gevonden.',
  invalidJson: 'Ongeldige JSON in de request body.',
  unsupportedMediaType: 'Niet-ondersteund content-type: stuur application/json.',
  bodyTooLarge: 'De request body is groter dan 1 MiB.',
  tooManyRequests: 'Te veel verzoeken: wacht even en probeer het opnieuw.',
  internal: 'Interne serverfout.',
  keyInUrl: 'Een API-sleutel hoort niet in de URL: stuur hem in de header Authorization: Bearer <API_KEY>.',
  featureDisabled: (feature: string) => `De functie ${feature} is voor deze omgeving uitgeschakeld.`,
} as const;

export const notFound = (what: string) => new TRPCError({ code: 'NOT_FOUND', message: ERRORS.notFound(what) });
export const badRequest = (message: string) => new TRPCError({ code: 'BAD_REQUEST', message });

/**
 * An error raised outside a procedure (limits, quotas) with its Dutch message and response headers.
 * `trpc` is its tRPC form, so /trpc and procedures answer with tRPC's status and envelope.
 */
export class ApiError extends Error {
  readonly trpc: TRPCError;
  readonly statusCode: number;

  constructor(
    code: TRPC_ERROR_CODE_KEY,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.trpc = new TRPCError({ code, message, cause: this });
    this.statusCode = getHTTPStatusCodeFromError(this.trpc);
  }
}
