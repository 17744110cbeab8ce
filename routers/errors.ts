import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import type { DomainError, DomainErrorKind } from '../domain/errors.ts';

/** The one mapping from domain errors to tRPC codes; REST takes its status from the same code. */
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
