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
  /** Dotted procedure name, e.g. "scans.list". */
  name: string;
  meta: RestMeta;
  input: I;
  output: O;
}

const operations: RestOperation[] = [];

/**
 * Declares a REST operation beside its procedure, which takes its meta and schemas from it: the REST
 * routes, the MCP tools and the document read this table, never tRPC's internals.
 */
export function restOperation<I extends z.ZodType, O extends z.ZodType>(
  name: string,
  spec: Omit<RestOperation<I, O>, 'name'>,
): RestOperation<I, O> {
  const operation = { name, ...spec };
  operations.push(operation);
  return operation;
}

/** Every declared operation, filled as the router modules load (routers/index.ts imports them all). */
export const REST_OPERATIONS: readonly RestOperation[] = operations;
