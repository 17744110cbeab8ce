import { z } from 'zod';
import { ERRORS, Unauthenticated } from '../../domain/errors.ts';
import { acceptInvitation, changePassword, logIn, logOut, signUp } from '../../services/accounts.ts';
import { publicProcedure, router, userProcedure } from '../trpc.ts';
import { AcceptInviteInput, ChangePasswordInput, LogInInput, Me, SignUpInput } from './schemas.ts';

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
      ctx.session.set(await logIn(ctx, { address: ctx.clientAddress }, input));
      return { ok: true as const };
    }),

  logOut: publicProcedure.output(Ok).mutation(async ({ ctx }) => {
    if (ctx.session.token) await logOut(ctx, { token: ctx.session.token });
    ctx.session.clear();
    return { ok: true as const };
  }),

  /** Joins a team through an invitation link: sets the password and logs in. */
  acceptInvite: publicProcedure
    .input(AcceptInviteInput)
    .output(Ok)
    .mutation(async ({ ctx, input }) => {
      ctx.session.set(await acceptInvitation(ctx, input));
      return { ok: true as const };
    }),

  /** Ends every session of the user (other browsers too) and keeps this one logged in with a new id. */
  changePassword: userProcedure
    .input(ChangePasswordInput)
    .output(Ok)
    .mutation(async ({ ctx, input }) => {
      ctx.session.set(await changePassword(ctx, ctx.user, input));
      return { ok: true as const };
    }),

  me: publicProcedure.output(Me).query(({ ctx }) => {
    const user = ctx.user;
    if (!user) throw new Unauthenticated(ERRORS.notLoggedIn);
    return {
      user_id: user.actor.id,
      tenant_id: user.tenantId,
      email: user.email,
      role: user.role,
      is_staff: user.isStaff,
    };
  }),
});
