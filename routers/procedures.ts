import type { AnyProcedure, TRPCRouterRecord } from '@trpc/server';
import type { OpenApiMeta, OpenApiMethod } from 'trpc-to-openapi';
import { z } from 'zod';
import type { Context } from './context.ts';
import { appRouter } from './index.ts';
import { procedureCaller } from './procedure-caller.ts';
import type { Meta } from './trpc.ts';

type RestMeta = Meta & { openapi: NonNullable<OpenApiMeta['openapi']> };

/** A procedure found by walking the router, with a handle that runs it (middlewares, validation and all). */
export interface ProcedureHandle {
  /** Dotted procedure name, e.g. "scans.list". */
  name: string;
  type: AnyProcedure['_def']['type'];
  call: (ctx: Context, input: unknown) => Promise<unknown>;
  /** REST metadata; null for procedures only served over /trpc. */
  rest: RestMeta | null;
  /** The procedure's zod schemas (the MCP tools describe themselves with them). */
  input: z.ZodType | null;
  output: z.ZodType | null;
}

/** A procedure the REST facade serves. */
export interface OpenApiProcedure extends ProcedureHandle {
  method: OpenApiMethod;
  /** OpenAPI path with {param} segments. */
  path: string;
  meta: RestMeta;
}

/** Procedures' meta is untyped at run time; a REST procedure's has an openapi object. */
function isRestMeta(meta: unknown): meta is RestMeta {
  return typeof meta === 'object' && meta !== null && 'openapi' in meta && typeof meta.openapi === 'object' && meta.openapi !== null;
}

/** A procedure's parser when it is a zod schema (every procedure here uses zod). */
const zodSchema = (parser: unknown): z.ZodType | null => (parser instanceof z.ZodType ? parser : null);

function walk(record: TRPCRouterRecord, prefix: string, found: ProcedureHandle[]): ProcedureHandle[] {
  for (const [key, value] of Object.entries(record)) {
    const name = `${prefix}${key}`;
    if (typeof value !== 'function') {
      walk(value, `${name}.`, found);
      continue;
    }
    const procedure: AnyProcedure = value;
    const type = procedure._def.type;
    const meta = procedure._def.meta;
    const run = procedureCaller(procedure);
    found.push({
      name,
      type,
      call: (ctx, input) => run({ ctx, getRawInput: async () => input, path: name, type, signal: undefined, batchIndex: 0 }),
      rest: isRestMeta(meta) ? meta : null,
      input: zodSchema(procedure._def.inputs[0]),
      output: zodSchema('output' in procedure._def ? procedure._def.output : undefined),
    });
  }
  return found;
}

const PROCEDURES = walk(appRouter._def.record, '', []);

/** Every procedure with REST metadata: the REST facade and the OpenAPI document both use this list. */
export const OPENAPI_PROCEDURES: readonly OpenApiProcedure[] = PROCEDURES.flatMap((handle) =>
  handle.rest ? [{ ...handle, method: handle.rest.openapi.method, path: handle.rest.openapi.path, meta: handle.rest }] : [],
);

/** Every query procedure by dotted name, for the /trpc fast path. */
export const QUERY_PROCEDURES: ReadonlyMap<string, ProcedureHandle> = new Map(PROCEDURES.filter((p) => p.type === 'query').map((p) => [p.name, p]));

/** Every procedure by dotted name. */
export const PROCEDURES_BY_NAME: ReadonlyMap<string, ProcedureHandle> = new Map(PROCEDURES.map((p) => [p.name, p]));
