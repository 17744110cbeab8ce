import { getTRPCErrorFromUnknown, TRPCError, type AnyProcedure } from '@trpc/server';

/** What tRPC hands a procedure call (ProcedureCallOptions), as far as the chain reads it. */
export interface CallOptions {
  ctx: object;
  type: AnyProcedure['_def']['type'];
  path: string;
  input?: unknown;
  getRawInput: () => Promise<unknown>;
  signal: AbortSignal | undefined;
  batchIndex: number;
}

type NextOptions = { ctx?: object; input?: unknown; getRawInput?: () => Promise<unknown> } | undefined;
type Result = { ok: true; data: unknown; marker: typeof MARKER } | { ok: false; error: TRPCError; marker: typeof MARKER };
type Middleware = (opts: CallOptions & { meta: unknown; next: (nextOpts?: NextOptions) => Promise<Result> }) => Promise<Result>;

/** A procedure definition as tRPC builds it: its middleware chain, resolver last. */
function hasChain(def: object): def is { middlewares: Middleware[]; meta: unknown; output?: unknown; experimental_caller?: boolean } {
  return 'middlewares' in def && Array.isArray(def.middlewares) && def.middlewares.every((m) => typeof m === 'function');
}

/** A zod schema (or any parser tRPC would call through parseAsync). */
const parsesAsync = (parser: unknown): parser is { parseAsync(data: unknown): Promise<unknown> } =>
  typeof parser === 'object' && parser !== null && 'parseAsync' in parser && typeof parser.parseAsync === 'function';

/**
 * tRPC's output step (`.output(schema)`), as tRPC writes it - parse the resolver's data, answer an
 * INTERNAL_SERVER_ERROR "Output validation failed" with the parse error as cause - but returning
 * the result as a literal: tRPC copies it twice with its transpiled spread helper.
 */
function outputStep(schema: { parseAsync(data: unknown): Promise<unknown> }): Middleware {
  return async ({ next }) => {
    const result = await next();
    if (!result.ok) return result;
    let data: unknown;
    try {
      data = await schema.parseAsync(result.data);
    } catch (cause) {
      throw new TRPCError({ message: 'Output validation failed', code: 'INTERNAL_SERVER_ERROR', cause });
    }
    return { ok: true, data, marker: result.marker };
  };
}

/** tRPC's marker on middleware results. */
const MARKER = 'middlewareMarker';

/** A middleware's throw as tRPC's caller turns it into a result. */
const failure = (cause: unknown): Result => ({ ok: false, error: getTRPCErrorFromUnknown(cause), marker: MARKER });

/**
 * Runs a procedure's middleware chain (our admission, input and output validation, the resolver)
 * exactly as tRPC's own caller does - same order, same options, errors turned into results the
 * same way - but builds each level's options as a plain object literal.
 * tRPC's build copies them with a transpiled helper that defines every property one by one, twice
 * per level; on a read that is the biggest cost of the tRPC layer.
 */
export function procedureCaller(procedure: AnyProcedure): (opts: CallOptions) => Promise<unknown> {
  const def: object = procedure._def;
  // A procedure with its own caller decides how it runs, and a tRPC whose definitions no longer
  // carry the chain runs its own: hand the call over whole.
  if (!hasChain(def) || def.experimental_caller) return (opts) => procedure(opts);
  const { meta, output } = def;
  // tRPC marks its own steps with _type; only the output step is swapped, for one that does the same.
  const middlewares = def.middlewares.map((m) => ('_type' in m && m._type === 'output' && parsesAsync(output) ? outputStep(output) : m));
  // Options are written out field by field: every level then builds objects of one shape. A level
  // is not an async function of its own: the middleware's promise, with its rejection turned into
  // a result, is the level's (one promise turn less per level than `return await`).
  const step = (index: number, opts: CallOptions): Promise<Result> => {
    const { ctx, type, path, input, getRawInput, signal, batchIndex } = opts;
    let answer: Promise<Result> | Result;
    try {
      answer = middlewares[index]!({
        ctx,
        type,
        path,
        input,
        getRawInput,
        signal,
        batchIndex,
        meta,
        next: (nextOpts) =>
          step(index + 1, {
            ctx: nextOpts?.ctx ? { ...ctx, ...nextOpts.ctx } : ctx,
            type,
            path,
            input: nextOpts && 'input' in nextOpts ? nextOpts.input : input,
            getRawInput: nextOpts?.getRawInput ?? getRawInput,
            signal,
            batchIndex,
          }),
      });
    } catch (cause) {
      return Promise.resolve(failure(cause));
    }
    return Promise.resolve(answer).catch(failure);
  };
  return async (opts) => {
    const result = await step(0, opts);
    if (!result) throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'No result from middlewares - did you forget to `return next()`?' });
    if (!result.ok) throw result.error;
    return result.data;
  };
}
