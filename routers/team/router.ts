import { changeRole, inviteMember, listTeam, setBlocked } from '../../services/team.ts';
import { router, userProcedure } from '../trpc.ts';
import { BlockInput, InviteInput, RoleInput } from './schemas.ts';

// The owner's team page: the services refuse anyone else.
export const teamRouter = router({
  list: userProcedure.query(({ ctx }) => listTeam(ctx, ctx.user)),
  invite: userProcedure.input(InviteInput).mutation(({ ctx, input }) => inviteMember(ctx, ctx.user, input)),
  setRole: userProcedure.input(RoleInput).mutation(({ ctx, input }) => changeRole(ctx, ctx.user, input)),
  setBlocked: userProcedure.input(BlockInput).mutation(({ ctx, input }) => setBlocked(ctx, ctx.user, input)),
});
