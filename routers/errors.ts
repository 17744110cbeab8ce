import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { DomainError, ERRORS, TooManyRequests, type DomainErrorKind, type LimitWindow } from '../domain/errors.ts';
import { fieldIssues, invalidInputMessage, type FieldIssue } from './common.ts';

/** The one mapping from domain errors to tRPC codes; the HTTP status follows from the code. */
const TRPC_CODES = {
  invalid: 'BAD_REQUEST',
  target_refused: 'BAD_REQUEST',
  unauthenticated: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  not_found: 'NOT_FOUND',
  conflict: 'CONFLICT',
  too_many_requests: 'TOO_MANY_REQUESTS',
} as const satisfies Record<DomainErrorKind, TRPC_ERROR_CODE_KEY>;

/** The domain error as tRPC raises it; the original stays reachable as `cause`. */
export function toTrpcError(error: DomainError): TRPCError {
  return new TRPCError({ code: TRPC_CODES[error.kind], message: error.message, cause: error });
}

/** The x-ratelimit-* headers of a per-minute window, on every admitted answer and on its refusal. */
export const rateLimitHeaders = (window: LimitWindow): Record<string, string> => ({
  'x-ratelimit-limit': String(window.limit),
  'x-ratelimit-remaining': String(window.remaining),
  'x-ratelimit-reset': String(window.resetSeconds),
});

/** How every transport answers a failure: REST's `{ error }`, tRPC's envelope and MCP's tool error alike. */
export interface ErrorAnswer {
  status: number;
  code: TRPC_ERROR_CODE_KEY;
  /** Dutch, fit to show as is; internal failures say only that. */
  message: string;
  /** Retry-After and the per-minute window of a refused limit. */
  headers: Record<string, string>;
  /** The fields invalid input failed on. */
  issues: FieldIssue[];
  /** An unexpected failure: the transport logs `cause`, the caller sees ERRORS.internal. */
  internal: boolean;
  cause: unknown;
}

function domainAnswer(error: DomainError): ErrorAnswer {
  const code = TRPC_CODES[error.kind];
  const headers =
    error instanceof TooManyRequests
      ? { 'retry-after': String(error.retryAfterSeconds), ...(error.window ? rateLimitHeaders(error.window) : {}) }
      : {};
  return {
    status: getHTTPStatusCodeFromError(new TRPCError({ code })),
    code,
    message: error.message,
    headers,
    issues: [],
    internal: false,
    cause: error,
  };
}

/** The one translation of anything a call can throw (domain errors, tRPC's, validation, crashes) into an answer. */
export function errorAnswer(error: unknown): ErrorAnswer {
  if (error instanceof DomainError) return domainAnswer(error);
  if (error instanceof TRPCError && error.cause instanceof DomainError) return domainAnswer(error.cause);
  if (error instanceof TRPCError && error.code !== 'INTERNAL_SERVER_ERROR') {
    const issues = error.code === 'BAD_REQUEST' ? fieldIssues(error.cause) : [];
    return {
      status: getHTTPStatusCodeFromError(error),
      code: error.code,
      message: issues.length ? invalidInputMessage(issues) : error.message,
      headers: {},
      issues,
      internal: false,
      cause: error,
    };
  }
  const cause = error instanceof TRPCError ? (error.cause ?? error) : error;
  return {
    status: 500,
    code: 'INTERNAL_SERVER_ERROR',
    message: ERRORS.internal,
    headers: {},
    issues: [],
    internal: true,
    cause,
  };
}
