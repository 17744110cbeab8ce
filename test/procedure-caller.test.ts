import { initTRPC, TRPCError, type AnyProcedure } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NotFound } from '../domain/errors.ts';
import { fastParse } from '../routers/common.ts';
import { procedureCaller, runsDirectly, type CallOptions } from '../routers/procedure-caller.ts';
import { protectedProcedure, publicProcedure } from '../routers/trpc.ts';

// The lean caller must answer exactly as tRPC's own: same data, same errors (class, code, message,
// cause), the same middlewares run, for every way a chain can end.
const t = initTRPC.context<{ tenant: string; seen: string[] }>().create();
const withUser = t.procedure.use(async ({ ctx, next }) => {
  ctx.seen.push('admission');
  if (ctx.tenant === 'weg') throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Niet geauthenticeerd.' });
  return next({ ctx: { user: `gebruiker van ${ctx.tenant}` } });
});
/** A middleware that forgets to return next()'s result; typed loosely, as a JavaScript caller would be. */
async function returnsNothing(): Promise<any> {}

const procedures: Record<string, AnyProcedure> = {
  echo: withUser
    .input(z.object({ n: z.number().int() }))
    .output(z.object({ n: z.number(), user: z.string(), tenant: z.string() }))
    .query(({ ctx, input }) => ({ n: input.n * 2, user: ctx.user, tenant: ctx.tenant })),
  // The output schema decides what leaves: a column the resolver read but the document lacks is dropped.
  strips: withUser.output(z.object({ n: z.number() })).query(() => ({ n: 1, key_hash: 'intern' })),
  badOutput: withUser.output(z.object({ n: z.number() })).query((): { n: number } => JSON.parse('{"n":"geen getal"}')),
  throws: withUser.query(() => {
    throw new Error('kapot');
  }),
  twoInputs: withUser
    .input(z.object({ a: z.string() }))
    .input(z.object({ b: z.string().default('standaard') }))
    .query(({ input }) => input),
  noResult: t.procedure.use(returnsNothing).query(() => 'nooit'),
};

const optionsFor = (name: string, tenant: string, input: unknown): CallOptions => ({
  ctx: { tenant, seen: [] },
  type: 'query',
  path: name,
  getRawInput: async () => input,
  signal: undefined,
  batchIndex: 0,
});

async function outcome(run: () => Promise<unknown>) {
  try {
    return { data: await run() };
  } catch (error) {
    const trpc = error as TRPCError & { cause?: unknown };
    return { error: { class: trpc.constructor.name, code: trpc.code, message: trpc.message, cause: String(trpc.cause) } };
  }
}

/** Runs a procedure through the lean caller and through tRPC's own, each with its own options. */
async function expectSameAnswer(procedure: AnyProcedure, options: () => CallOptions) {
  const [ours, theirs] = [options(), options()];
  const lean = await outcome(() => procedureCaller(procedure)(ours));
  const own = await outcome(() => procedure(theirs));
  expect(lean).toEqual(own);
  expect(ours.ctx).toEqual(theirs.ctx);
}

describe('procedureCaller', () => {
  const cases: Array<[string, string, unknown]> = [
    ['echo', 'acme', { n: 21 }],
    ['echo', 'acme', { n: 1.5 }],
    ['echo', 'acme', 'geen object'],
    ['echo', 'weg', { n: 1 }],
    ['strips', 'acme', undefined],
    ['badOutput', 'acme', undefined],
    ['throws', 'acme', undefined],
    ['twoInputs', 'acme', { a: 'x' }],
    ['noResult', 'acme', undefined],
  ];
  it.each(cases)('%s for tenant %s with %j answers as tRPC does', async (name, tenant, input) => {
    await expectSameAnswer(procedures[name]!, () => optionsFor(name, tenant, input));
  });

  it('passes the extended context and the parsed input on', async () => {
    expect(await procedureCaller(procedures.echo!)(optionsFor('echo', 'acme', { n: 21 }))).toEqual({ n: 42, user: 'gebruiker van acme', tenant: 'acme' });
    expect(await procedureCaller(procedures.strips!)(optionsFor('strips', 'acme', undefined))).toEqual({ n: 1 });
    expect(await procedureCaller(procedures.twoInputs!)(optionsFor('twoInputs', 'acme', { a: 'x' }))).toEqual({ a: 'x', b: 'standaard' });
    const refused = await outcome(() => procedureCaller(procedures.echo!)(optionsFor('echo', 'weg', { n: 1 })));
    expect(refused.error).toMatchObject({ class: 'TRPCError', code: 'UNAUTHORIZED', message: 'Niet geauthenticeerd.' });
  });
});

// The service's own procedures (admission, one input, the output, the resolver) run as one function;
// they too must answer exactly as tRPC's own caller, domain errors translated the same way.
describe('procedureCaller on the common chain', () => {
  const In = () => fastParse(z.object({ n: z.coerce.number().int() }));
  const Out = () => fastParse(z.object({ tenant: z.string(), n: z.number() }));
  const reads = protectedProcedure.meta({ permission: 'read_scans' }).input(In()).output(Out());
  const service: Record<string, AnyProcedure> = {
    ok: reads.query(({ ctx, input }) => ({ tenant: ctx.actor.tenantId, n: input.n * 2, key_hash: 'intern' })),
    notFound: reads.query(() => {
      throw new NotFound('Scan');
    }),
    crashes: reads.query(() => {
      throw new Error('kapot');
    }),
    conflict: reads.query(() => {
      throw new TRPCError({ code: 'CONFLICT', message: 'Bestaat al.' });
    }),
    badOutput: reads.query((): { tenant: string; n: number } => JSON.parse('{"tenant":1,"n":2}')),
    writes: protectedProcedure.meta({ permission: 'write_scans' }).input(In()).output(Out()).mutation(({ input }) => ({ tenant: 'x', n: input.n })),
    open: publicProcedure.input(In()).output(Out()).query(({ input }) => ({ tenant: 'open', n: input.n })),
  };
  const reader = { tenantId: 'tenant-1', actor: { kind: 'api_key', id: 'key-1' }, permissions: ['read_scans'] };
  const options = (name: string, actor: object | null, input: unknown): CallOptions => ({
    ctx: { actor, user: null },
    type: service[name]!._def.type,
    path: name,
    getRawInput: async () => input,
    signal: undefined,
    batchIndex: 0,
  });

  it('takes the direct path for the service\'s procedures and the level-by-level one for others', () => {
    for (const procedure of Object.values(service)) expect(runsDirectly(procedure)).toBe(true);
    for (const procedure of Object.values(procedures)) expect(runsDirectly(procedure)).toBe(false);
  });

  const cases: Array<[string, object | null, unknown]> = [
    ['ok', reader, { n: '21' }],
    ['ok', reader, { n: 'geen getal' }],
    ['ok', reader, 'geen object'],
    ['ok', null, { n: 1 }],
    ['notFound', reader, { n: 1 }],
    ['crashes', reader, { n: 1 }],
    ['conflict', reader, { n: 1 }],
    ['badOutput', reader, { n: 1 }],
    ['writes', reader, { n: 1 }],
    ['open', null, { n: 3 }],
  ];
  it.each(cases)('%s for %j with %j answers as tRPC does', async (name, actor, input) => {
    await expectSameAnswer(service[name]!, () => options(name, actor, input));
  });

  it('answers the parsed output without the columns the schema lacks, and domain errors with their code', async () => {
    expect(await procedureCaller(service.ok!)(options('ok', reader, { n: '21' }))).toEqual({ tenant: 'tenant-1', n: 42 });
    expect((await outcome(() => procedureCaller(service.notFound!)(options('notFound', reader, { n: 1 })))).error).toMatchObject({ code: 'NOT_FOUND' });
    expect((await outcome(() => procedureCaller(service.writes!)(options('writes', reader, { n: 1 })))).error).toMatchObject({ code: 'FORBIDDEN' });
    expect((await outcome(() => procedureCaller(service.ok!)(options('ok', null, { n: 1 })))).error).toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
