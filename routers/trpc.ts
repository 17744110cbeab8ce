import { initTRPC, type TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { assertPermission } from '../domain/actor.ts';
import { DomainError, ERRORS, Unauthenticated } from '../domain/errors.ts';
import type { Permission } from '../domain/vocabulary.ts';
import { fieldIssues, invalidInputMessage } from './common.ts';
import type { Context } from './context.ts';
import { toTrpcError } from './errors.ts';
import { registerAdmission } from './procedure-caller.ts';

export type Meta = {
  /** HTTP status of a successful REST call (default 200). */
  successStatus?: 200 | 201;
  /** Permission the caller needs, checked before the input is read; absent for the public auth endpoint. */
  permission?: Permission;
  /** Content-Type of a successful REST answer when it is not application/json. */
  responseContentType?: string;
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

/** Services throw domain errors; here they become tRPC errors with the right code, once. */
const asTrpcError = (error: unknown) => (error instanceof DomainError ? toTrpcError(error) : error);

/**
 * A procedure whose admission check (`admit`, which may throw domain errors) and error translation
 * run in one middleware: each tRPC middleware level copies the call's options twice, so on the
 * hot read path one level is measurably cheaper than two. The middleware is registered with the
 * procedure caller, which runs the common chain after it as one function (procedure-caller.ts).
 */
function admittedProcedure<Added extends object>(admit: (ctx: Context, meta: Meta | undefined) => Added) {
  const admission = {
    admit(ctx: Context, meta: Meta | undefined): Added {
      try {
        return admit(ctx, meta);
      } catch (error) {
        throw asTrpcError(error);
      }
    },
    failure: (error: TRPCError): TRPCError => (error.cause instanceof DomainError ? toTrpcError(error.cause) : error),
  };
  const procedure = t.procedure.use(async ({ ctx, meta, next }) => {
    const result = await next({ ctx: admission.admit(ctx, meta) });
    if (!result.ok) throw admission.failure(result.error);
    return result;
  });
  registerAdmission(procedure._def.middlewares[0]!, admission);
  return procedure;
}

export const publicProcedure = admittedProcedure(() => ({}));

/** Requires an authenticated caller holding the procedure's permission (set in meta). */
export const protectedProcedure = admittedProcedure((ctx, meta) => {
  const actor = ctx.actor;
  if (!actor) throw new Unauthenticated(ERRORS.unauthorized);
  if (meta?.permission) assertPermission(actor, meta.permission);
  return { actor };
});

/**
 * Dashboard procedures: a logged-in person only (a key gets 401 "Niet ingelogd."), with the
 * permission in meta checked as for agents. Keys are managed in the dashboard, not with a key (SPEC).
 */
export const userProcedure = admittedProcedure((ctx, meta) => {
  const user = ctx.user;
  if (!user || ctx.actor !== user) throw new Unauthenticated(ERRORS.notLoggedIn);
  if (meta?.permission) assertPermission(user, meta.permission);
  return { actor: user, user };
});
