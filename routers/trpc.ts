import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { assertPermission } from '../domain/actor.ts';
import { DomainError, ERRORS, Unauthenticated } from '../domain/errors.ts';
import type { z } from 'zod';
import type { Context } from './context.ts';
import type { Meta, RestOperation } from './operations.ts';
import { errorAnswer, toTrpcError } from './errors.ts';

const t = initTRPC
  .context<Context>()
  .meta<OpenApiMeta<Meta>>()
  .create({
    isDev: false,
    // The same Dutch text as REST and MCP (errorAnswer): internal errors say only that (the log has
    // the rest), invalid input names its fields in the message and lists them in data.issues.
    errorFormatter: ({ shape, error }) => {
      const answer = errorAnswer(error);
      return {
        ...shape,
        message: answer.message,
        data: answer.issues.length ? { ...shape.data, issues: answer.issues } : shape.data,
      };
    },
  });

export const router = t.router;

/** Lets tRPC and REST call procedures by name through tRPC's own caller. */
export const createCallerFactory = t.createCallerFactory;

/** Services throw domain errors; here they become tRPC errors with the right code, once for every procedure. */
const domainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof DomainError) throw toTrpcError(result.error.cause);
  return result;
});

export const publicProcedure = t.procedure.use(domainErrors);

/** Requires an authenticated caller holding the procedure's permission (set in meta). */
export const protectedProcedure = publicProcedure.use(({ ctx, meta, next }) => {
  const actor = ctx.actor;
  if (!actor) throw new Unauthenticated(ERRORS.unauthorized);
  if (meta?.permission) assertPermission(actor, meta.permission);
  return next({ ctx: { actor } });
});

/**
 * Dashboard procedures: a logged-in person only (a key gets 401 "Niet ingelogd."), with the
 * permission in meta checked as for agents. Keys are managed in the dashboard, not with a key (docs/spec.md).
 */
export const userProcedure = publicProcedure.use(({ ctx, meta, next }) => {
  const user = ctx.user;
  if (!user || ctx.actor !== user) throw new Unauthenticated(ERRORS.notLoggedIn);
  if (meta?.permission) assertPermission(user, meta.permission);
  return next({ ctx: { actor: user, user } });
});

/** A protected procedure that takes its meta and schemas from its REST operation (routers/operations.ts). */
export const operationProcedure = <I extends z.ZodType, O extends z.ZodType>(operation: RestOperation<I, O>) =>
  protectedProcedure.meta(operation.meta).input(operation.input).output(operation.output);
