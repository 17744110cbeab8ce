import { TRPCError } from '@trpc/server';

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
  featureDisabled: (feature: string) => `De functie ${feature} is voor deze omgeving uitgeschakeld.`,
} as const;

export const notFound = (what: string) => new TRPCError({ code: 'NOT_FOUND', message: ERRORS.notFound(what) });
export const badRequest = (message: string) => new TRPCError({ code: 'BAD_REQUEST', message });

/** An error with its HTTP status and Dutch message, rendered as { error } by the REST facade. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The tRPC form of an ApiError, so /trpc answers with the right status too. */
export function asTrpcError(error: ApiError): TRPCError {
  return new TRPCError({ code: error.statusCode === 429 ? 'TOO_MANY_REQUESTS' : 'BAD_REQUEST', message: error.message, cause: error });
}
