/** Dutch texts of the errors users see, in one place. */
export const ERRORS = {
  unauthorized: 'Niet geauthenticeerd: ontbrekende, ongeldige of ingetrokken API-sleutel.',
  invalidKey: 'Ongeldige of inactieve API-sleutel.',
  notLoggedIn: 'Niet ingelogd.',
  ownerOnly: 'Alleen de eigenaar van het account beheert het team.',
  staffOnly: 'Alleen medewerkers van de dienst hebben hier toegang.',
  crossOrigin: 'Verzoek van een andere herkomst geweigerd.',
  forbidden: (permission: string) => `Onvoldoende rechten: deze API-sleutel mist de permissie ${permission}.`,
  forbiddenForUser: (permission: string) => `Onvoldoende rechten: uw rol staat ${permission} niet toe.`,
  notFound: (what: string) => `${what} niet gevonden.`,
  routeNotFound: 'Endpoint niet gevonden.',
  invalidJson: 'Ongeldige JSON in de request body.',
  badRequest: 'Ongeldig verzoek.',
  unsupportedMediaType: 'Niet-ondersteund content-type: stuur application/json.',
  bodyTooLarge: 'De request body is groter dan 1 MiB.',
  tooManyRequests: 'Te veel verzoeken: wacht even en probeer het opnieuw.',
  internal: 'Interne serverfout.',
  keyInUrl: 'Een API-sleutel hoort niet in de URL: stuur hem in de header Authorization: Bearer <API_KEY>.',
  featureDisabled: (feature: string) => `De functie ${feature} is voor deze omgeving uitgeschakeld.`,
} as const;

/** Every kind of domain error; the edges map each kind once (routers/errors.ts). */
export const DOMAIN_ERROR_KINDS = [
  'invalid',
  'unauthenticated',
  'forbidden',
  'not_found',
  'conflict',
  'target_refused',
  'too_many_requests',
] as const;
export type DomainErrorKind = (typeof DOMAIN_ERROR_KINDS)[number];

/**
 * An error a service raises for its caller, with a Dutch message fit to show as is. It knows
 * nothing of HTTP or tRPC: REST answers it as `{ error }` with a status, /trpc with a tRPC code.
 */
export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
}

/** The input breaks a rule the schema could not express (a URL on another host, say). */
export class Invalid extends DomainError {
  readonly kind = 'invalid';
}

export class Unauthenticated extends DomainError {
  readonly kind = 'unauthenticated';
}

export class Forbidden extends DomainError {
  readonly kind = 'forbidden';
}

/** Missing, or another tenant's: the two are indistinguishable on purpose. */
export class NotFound extends DomainError {
  readonly kind = 'not_found';
  constructor(what: string) {
    super(ERRORS.notFound(what));
  }
}

export class Conflict extends DomainError {
  readonly kind = 'conflict';
}

/** The scanner refused or could not reach the target. */
export class TargetRefused extends DomainError {
  readonly kind = 'target_refused';
}

/** A per-minute window as the x-ratelimit-* headers tell it. */
export interface LimitWindow {
  limit: number;
  remaining: number;
  /** Whole seconds until the window starts over (at least 1). */
  resetSeconds: number;
}

/** A limit is reached (rate, quota, capacity); trying again after `retryAfterSeconds` may work. */
export class TooManyRequests extends DomainError {
  readonly kind = 'too_many_requests';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    /** A per-minute window's state, for the x-ratelimit-* headers. */
    readonly window?: LimitWindow,
  ) {
    super(message);
  }
}

/** A monthly plan quota is used up until the month turns. */
export class QuotaExceeded extends TooManyRequests {}
