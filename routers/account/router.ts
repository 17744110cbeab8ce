import { z } from 'zod';
import { ERRORS, Unauthenticated } from '../../domain/errors.ts';
import { logIn, logOut, signUp } from '../../services/accounts.ts';
import { publicProcedure, router } from '../trpc.ts';
import { LogInInput, Me, SignUpInput } from './schemas.ts';

// Dashboard procedures: served over /trpc only (no openapi meta), for people with a session cookie.

const Ok = z.object({ ok: z.literal(true) });

export const accountRouter = router({
  signUp: publicProcedure
    .input(SignUpInput)
    .output(Ok)
    .mutation(async ({ ctx, input }) => {
      const { session } = await signUp(ctx, input);
      ctx.session.set(session);
      return { ok: true as const };
    }),

  logIn: publicProcedure
    .input(LogInInput)
    .output(Ok)
    .mutation(async ({ ctx, input }) => {
      ctx.session.set(await logIn(ctx, ctx.counters, { ...input, address: ctx.clientAddress }));
      return { ok: true as const };
    }),

  logOut: publicProcedure.output(Ok).mutation(async ({ ctx }) => {
    if (ctx.session.token) await logOut(ctx, ctx.session.token);
    ctx.session.clear();
    return { ok: true as const };
  }),

  me: publicProcedure.output(Me).query(({ ctx }) => {
    const user = ctx.user;
    if (!user) throw new Unauthenticated(ERRORS.notLoggedIn);
    return { user_id: user.actor.id, tenant_id: user.tenantId, email: user.email, role: user.role, is_staff: user.isStaff };
  }),
});
