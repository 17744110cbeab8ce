import { reviewAsStaff, reviewQueue } from '../../services/review.ts';
import { allTenants, peopleOfTenant, setTenantSuspended, setUserBlockedByStaff } from '../../services/staff.ts';
import { router, userProcedure } from '../trpc.ts';
import { QueueInput, ReviewInput, StaffBlockInput, SuspendInput, TenantInput } from './schemas.ts';

// The service's own team, across tenants: the services refuse anyone who is not staff.
export const staffRouter = router({
  reviewQueue: userProcedure.input(QueueInput).query(({ ctx, input }) => reviewQueue(ctx, ctx.user, input)),
  review: userProcedure.input(ReviewInput).mutation(({ ctx, input }) => reviewAsStaff(ctx, ctx.user, input)),
  tenants: userProcedure.query(({ ctx }) => allTenants(ctx, ctx.user)),
  people: userProcedure.input(TenantInput).query(({ ctx, input }) => peopleOfTenant(ctx, ctx.user, input)),
  setSuspended: userProcedure
    .input(SuspendInput)
    .mutation(({ ctx, input }) => setTenantSuspended(ctx, ctx.user, input)),
  setUserBlocked: userProcedure
    .input(StaffBlockInput)
    .mutation(({ ctx, input }) => setUserBlockedByStaff(ctx, ctx.user, input)),
});
