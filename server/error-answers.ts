import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { DomainError, ERRORS } from '../domain/errors.ts';
import { errorAnswer, type ErrorAnswer } from '../routers/errors.ts';

/** Fastify's own refusals (body parsing, URLs), in Dutch. */
export const FASTIFY_ERRORS: Record<string, string> = {
  FST_ERR_BAD_URL: 'Ongeldige URL.',
  FST_ERR_MAX_PARAM_LENGTH: 'De URL is te lang.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ERRORS.unsupportedMediaType,
  FST_ERR_CTP_BODY_TOO_LARGE: ERRORS.bodyTooLarge,
  FST_ERR_CTP_EMPTY_JSON_BODY: ERRORS.invalidJson,
  FST_ERR_CTP_INVALID_JSON_BODY: ERRORS.invalidJson,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Ongeldige Content-Length.',
};

/**
 * What reaches an HTTP error handler - a domain error from admission, Fastify's refusal of a body,
 * anything else - as errorAnswer gives it: the one translation every transport uses.
 */
export function httpErrorAnswer(error: unknown): ErrorAnswer {
  if (error instanceof DomainError) return errorAnswer(error);
  const { code, statusCode } = (error ?? {}) as { code?: string; statusCode?: number };
  if (statusCode && statusCode >= 400 && statusCode < 500) {
    const message = (code && FASTIFY_ERRORS[code]) ?? (statusCode === 429 ? ERRORS.tooManyRequests : ERRORS.badRequest);
    return { status: statusCode, code: 'BAD_REQUEST', message, headers: {}, issues: [], internal: false, cause: error };
  }
  return errorAnswer(error);
}

/** An answer in tRPC's own error envelope, for refusals of /trpc requests before tRPC's handler. */
export function trpcEnvelope(answer: ErrorAnswer) {
  return {
    error: {
      message: answer.message,
      code: TRPC_ERROR_CODES_BY_KEY[answer.code],
      data: { code: answer.code, httpStatus: answer.status },
    },
  };
}
