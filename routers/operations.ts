import type { OpenApiMeta } from 'trpc-to-openapi';
import type { z } from 'zod';
import type { Permission } from '../domain/vocabulary.ts';

export type Meta = {
  /** HTTP status of a successful REST call (default 200). */
  successStatus?: 200 | 201;
  /** Permission the caller needs, checked before the input is read; absent for the public auth endpoint. */
  permission?: Permission;
  /** Content-Type of a successful REST answer when it is not application/json. */
  responseContentType?: string;
};

export type RestMeta = Meta & { openapi: NonNullable<OpenApiMeta['openapi']> };

/** A procedure the REST API serves (and MCP, where routers/mcp-tools.ts names it): its meta and schemas. */
export interface RestOperation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  meta: RestMeta;
  input: I;
  output: O;
}

/**
 * Declares a REST operation beside its procedure, which takes its meta and schemas from it
 * (operationProcedure); routers/rest-operations.ts names each by its procedure's key.
 */
export function restOperation<I extends z.ZodType, O extends z.ZodType>(
  operation: RestOperation<I, O>,
): RestOperation<I, O> {
  return operation;
}
