import { initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { z } from 'zod';
import { fieldIssues, invalidInputMessage } from './common.ts';
import type { Context } from './context.ts';
import { ERRORS } from '../domain/errors.ts';
import { isFeatureEnabled } from '../services/feature-flags.ts';
import type { FeatureFlag, Permission } from '../domain/vocabulary.ts';

// Validation messages are user-facing, so zod speaks Dutch.
z.config(z.locales.nl());

export type Meta = {
  /** HTTP status of a successful REST call (default 200). */
  successStatus?: 200 | 201;
  /** Permission a key needs; absent for the public auth endpoint. */
  permission?: Permission;
};

const t = initTRPC
  .context<Context>()
  .meta<OpenApiMeta<Meta>>()
  .create({
    isDev: false,
    // The same Dutch text as REST: internal errors say only that (the log has the rest), invalid
    // input names its fields in the message and lists them in data.issues for clients.
    errorFormatter: ({ shape, error }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR') return { ...shape, message: ERRORS.internal };
      const issues = error.code === 'BAD_REQUEST' ? fieldIssues(error.cause) : [];
      return issues.length ? { ...shape, message: invalidInputMessage(issues), data: { ...shape.data, issues } } : shape;
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure;

/** Requires a valid key holding the procedure's permission (set in meta). */
export const protectedProcedure = t.procedure.use(({ ctx, meta, next }) => {
  const principal = ctx.principal;
  if (!principal) throw new TRPCError({ code: 'UNAUTHORIZED', message: ERRORS.unauthorized });
  if (meta?.permission && !principal.permissions.includes(meta.permission)) {
    throw new TRPCError({ code: 'FORBIDDEN', message: ERRORS.forbidden(meta.permission) });
  }
  return next({ ctx: { ...ctx, principal } });
});

/** A protected procedure that is only available while the feature flag is on for the tenant. */
export function featureProcedure(flag: FeatureFlag) {
  return protectedProcedure.use(async ({ ctx, next }) => {
    if (!(await isFeatureEnabled(ctx.db, flag, ctx.principal.tenantId))) {
      throw new TRPCError({ code: 'FORBIDDEN', message: ERRORS.featureDisabled(flag) });
    }
    return next();
  });
}
