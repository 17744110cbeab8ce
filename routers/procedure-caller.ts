import { getTRPCErrorFromUnknown, TRPCError, type AnyProcedure } from '@trpc/server';
import { syncParserOf } from './common.ts';

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
type ChainDef = { middlewares: Middleware[]; meta: unknown; inputs?: unknown[]; output?: unknown; resolver?: unknown; experimental_caller?: boolean };
function hasChain(def: object): def is ChainDef {
  return 'middlewares' in def && Array.isArray(def.middlewares) && def.middlewares.every((m) => typeof m === 'function');
}

/**
 * What an admission middleware does, in two parts a caller can run without the middleware: `admit`
 * answers the context it adds or throws the error that refuses the call, `failure` is the error the
 * call answers when a later step failed with this one (routers/trpc.ts translates domain errors).
 */
export interface DirectAdmission {
  admit(ctx: object, meta: unknown): object;
  failure(error: TRPCError): TRPCError;
}

const admissions = new WeakMap<object, DirectAdmission>();

/** Marks a middleware as this admission, so procedures that start with it can run directly. */
export function registerAdmission(middleware: object, admission: DirectAdmission): void {
  admissions.set(middleware, admission);
}

/** tRPC's error for an answer its output schema refuses. */
const outputFailure = (cause: unknown) => new TRPCError({ message: 'Output validation failed', code: 'INTERNAL_SERVER_ERROR', cause });

const isObject = (value: unknown): value is Record<string, unknown> => !!value && !Array.isArray(value) && typeof value === 'object';

/**
 * The common chain - a registered admission, one input, the output, the resolver, both schemas
 * through fastParse - run as one function: the same steps, options and errors as the chain, with
 * two promise turns (the raw input, the resolver) instead of one or more per level. Null for any
 * other chain.
 */
function directCall(def: ChainDef): ((opts: CallOptions) => Promise<unknown>) | null {
  const [first, input, output, resolve, ...more] = def.middlewares;
  const admission = first && admissions.get(first);
  const parseInput = def.inputs?.length === 1 ? syncParserOf(def.inputs[0]) : undefined;
  const parseOutput = syncParserOf(def.output);
  const resolver = def.resolver;
  const typeOf = (m: Middleware | undefined) => (m && '_type' in m ? m._type : undefined);
  if (!admission || !parseInput || !parseOutput || typeof resolver !== 'function' || more.length > 0) return null;
  if (typeOf(input) !== 'input' || typeOf(output) !== 'output' || resolve?.name !== 'resolveMiddleware') return null;
  const { meta } = def;
  return async (opts) => {
    const { ctx, type, path, getRawInput, signal, batchIndex } = opts;
    let added: object;
    try {
      added = admission.admit(ctx, meta);
    } catch (cause) {
      throw getTRPCErrorFromUnknown(cause);
    }
    let data: unknown;
    try {
      const raw = await getRawInput();
      let parsed: unknown;
      try {
        parsed = parseInput(raw);
      } catch (cause) {
        throw new TRPCError({ code: 'BAD_REQUEST', cause });
      }
      const merged = isObject(opts.input) && isObject(parsed) ? { ...opts.input, ...parsed } : parsed;
      data = await resolver({ ctx: { ...ctx, ...added }, type, path, input: merged, getRawInput, signal, batchIndex, meta });
    } catch (cause) {
      throw admission.failure(getTRPCErrorFromUnknown(cause));
    }
    try {
      return parseOutput(data);
    } catch (cause) {
      throw admission.failure(outputFailure(cause));
    }
  };
}

/** True when procedureCaller runs this procedure as one function (directCall). */
export const runsDirectly = (procedure: AnyProcedure): boolean => hasChain(procedure._def) && !procedure._def.experimental_caller && directCall(procedure._def) !== null;

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
      throw outputFailure(cause);
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
  const direct = directCall(def);
  if (direct) return direct;
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
