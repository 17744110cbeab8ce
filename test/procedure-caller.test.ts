import { initTRPC, TRPCError, type AnyProcedure } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { procedureCaller, type CallOptions } from '../routers/procedure-caller.ts';

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
    const procedure = procedures[name]!;
    const ours = optionsFor(name, tenant, input);
    const theirs = optionsFor(name, tenant, input);
    const lean = await outcome(() => procedureCaller(procedure)(ours));
    const own = await outcome(() => procedure(theirs));
    expect(lean).toEqual(own);
    expect(ours.ctx).toEqual(theirs.ctx);
  });

  it('passes the extended context and the parsed input on', async () => {
    expect(await procedureCaller(procedures.echo!)(optionsFor('echo', 'acme', { n: 21 }))).toEqual({ n: 42, user: 'gebruiker van acme', tenant: 'acme' });
    expect(await procedureCaller(procedures.strips!)(optionsFor('strips', 'acme', undefined))).toEqual({ n: 1 });
    expect(await procedureCaller(procedures.twoInputs!)(optionsFor('twoInputs', 'acme', { a: 'x' }))).toEqual({ a: 'x', b: 'standaard' });
    const refused = await outcome(() => procedureCaller(procedures.echo!)(optionsFor('echo', 'weg', { n: 1 })));
    expect(refused.error).toMatchObject({ class: 'TRPCError', code: 'UNAUTHORIZED', message: 'Niet geauthenticeerd.' });
  });
});
