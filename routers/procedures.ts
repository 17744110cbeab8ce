import type { OpenApiMethod } from 'trpc-to-openapi';
import type { Context } from './context.ts';
import { appRouter } from './index.ts';
import { REST_OPERATIONS, type NamedRestOperation, type ProcedureName } from './rest-operations.ts';
import { createCallerFactory } from './trpc.ts';

const createCaller = createCallerFactory(appRouter);

/** Runs a procedure by its dotted name through tRPC's own caller: middlewares, validation and all. */
export function callProcedure(ctx: Context, name: ProcedureName, input: unknown): Promise<unknown> {
  const procedure = name
    .split('.')
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], createCaller(ctx));
  if (typeof procedure !== 'function') throw new Error(`no procedure ${name}`);
  return procedure(input) as Promise<unknown>;
}

/** A procedure the REST facade serves, with a handle that runs it. */
export interface OpenApiProcedure extends NamedRestOperation {
  method: OpenApiMethod;
  /** OpenAPI path with {param} segments. */
  path: string;
  call: (ctx: Context, input: unknown) => Promise<unknown>;
}

/** Every REST operation: the REST facade, the MCP tools and the OpenAPI document use this list. */
export const OPENAPI_PROCEDURES: readonly OpenApiProcedure[] = REST_OPERATIONS.map((operation) => ({
  ...operation,
  method: operation.meta.openapi.method,
  path: operation.meta.openapi.path,
  call: (ctx, input) => callProcedure(ctx, operation.name, input),
}));

/** Every REST operation by dotted name. */
export const PROCEDURES_BY_NAME: ReadonlyMap<ProcedureName, OpenApiProcedure> = new Map(
  OPENAPI_PROCEDURES.map((p) => [p.name, p]),
);
