import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { DomainError, ERRORS, TooManyRequests, type LimitWindow } from '../domain/errors.ts';
import { fieldIssues, invalidInputMessage } from '../routers/common.ts';
import { toTrpcError } from '../routers/errors.ts';

/** The x-ratelimit-* headers of a per-minute window, on every admitted answer and on its refusal. */
export const rateLimitHeaders = (window: LimitWindow): Record<string, string> => ({
  'x-ratelimit-limit': String(window.limit),
  'x-ratelimit-remaining': String(window.remaining),
  'x-ratelimit-reset': String(window.resetSeconds),
});

/** Response headers a domain error carries: Retry-After and the per-minute window of a limit. */
export function headersOf(error: DomainError): Record<string, string> {
  if (!(error instanceof TooManyRequests)) return {};
  return { 'retry-after': String(error.retryAfterSeconds), ...(error.window ? rateLimitHeaders(error.window) : {}) };
}

export interface RestAnswer {
  status: number;
  body: { error: string };
  headers: Record<string, string>;
}

/** A procedure's failure as REST answers it: the status of its tRPC code and `{ error }` in Dutch. */
export function restAnswer(error: TRPCError): RestAnswer {
  const status = getHTTPStatusCodeFromError(error);
  if (error.cause instanceof DomainError) return { status, body: { error: error.message }, headers: headersOf(error.cause) };
  if (status >= 500) return { status: 500, body: { error: ERRORS.internal }, headers: {} };
  const issues = fieldIssues(error.cause);
  return { status, body: { error: issues.length ? invalidInputMessage(issues) : error.message }, headers: {} };
}

/** A domain error raised before tRPC's handler (limits, authentication) in tRPC's own envelope, for /trpc. */
export function trpcEnvelope(error: DomainError) {
  const trpcError = toTrpcError(error);
  return {
    status: getHTTPStatusCodeFromError(trpcError),
    body: { error: { message: error.message, code: TRPC_ERROR_CODES_BY_KEY[trpcError.code], data: { code: trpcError.code, httpStatus: getHTTPStatusCodeFromError(trpcError) } } },
  };
}
