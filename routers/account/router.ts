import { z } from 'zod';
import { ERRORS, Unauthenticated } from '../../domain/errors.ts';
import { acceptInvitation, changePassword, logIn, logOut } from '../../services/accounts.ts';
import { register, requestPasswordReset, resetPassword } from '../../services/account-mail.ts';
import { mySettings, setMySettings } from '../../services/notifications/preferences.ts';
import { publicProcedure, router, userProcedure } from '../trpc.ts';
import {
  AcceptInviteInput,
  ChangePasswordInput,
  LogInInput,
  Me,
  MyNotificationSettings,
  PasswordResetInput,
  PasswordResetRequestInput,
  SignUpInput,
} from './schemas.ts';

// Dashboard procedures: served over /trpc only (no openapi meta), for people with a session cookie.

const Ok = z.object({ ok: z.literal(true) });

export const accountRouter = router({
  /** With e-mail on: no session, the same answer for every address, a link by mail; without: logged in at once. */
  signUp: publicProcedure
    .input(SignUpInput)
    .output(Ok.extend({ message: z.string().nullable() }))
    .mutation(async ({ ctx, input }) => {
      const { session, message } = await register(ctx, input);
      if (session) ctx.session.set(session);
      return { ok: true as const, message };
    }),

  /** "Wachtwoord vergeten?": the same answer for every address; a known one gets a link by mail. */
  requestPasswordReset: publicProcedure
    .input(PasswordResetRequestInput)
    .output(Ok.extend({ message: z.string() }))
    .mutation(({ ctx, input }) => requestPasswordReset(ctx, { address: ctx.clientAddress }, input)),

  /** Sets a new password with the token of a reset link; logs nobody in. */
  resetPassword: publicProcedure
    .input(PasswordResetInput)
    .output(Ok)
    .mutation(({ ctx, input }) => resetPassword(ctx, input)),

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

  /** The member's own notification settings: categories, personal quiet hours, muted sites. */
  notificationSettings: userProcedure.output(MyNotificationSettings).query(({ ctx }) => mySettings(ctx, ctx.user)),

  setNotificationSettings: userProcedure
    .input(MyNotificationSettings)
    .output(MyNotificationSettings)
    .mutation(({ ctx, input }) => setMySettings(ctx, ctx.user, input)),

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
