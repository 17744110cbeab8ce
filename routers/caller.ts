import type { AnyProcedure } from '@trpc/server';
import type { Context } from './context.ts';
import { appRouter } from './index.ts';
import { createCallerFactory } from './trpc.ts';

const createCaller = createCallerFactory(appRouter);
const procedures = appRouter._def.procedures as unknown as Record<string, AnyProcedure>;

type Call = (input: unknown) => Promise<unknown>;

/** Calls a procedure by its dotted name ("scans.list") through tRPC's server-side caller, middlewares included. */
export function callProcedure(ctx: Context, name: string, input: unknown): Promise<unknown> {
  const [group, procedure] = name.split('.') as [string, string];
  return (createCaller(ctx) as unknown as Record<string, Record<string, Call>>)[group]![procedure]!(input);
}

export function isQueryProcedure(name: string): boolean {
  return procedures[name]?._def.type === 'query';
}
