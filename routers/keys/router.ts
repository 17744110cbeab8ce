import { createApiKey, listApiKeys, revokeKey } from '../../services/key-issuance.ts';
import { router, userProcedure } from '../trpc.ts';
import { KeyCreateInput, KeyRevokeInput } from './schemas.ts';

// Dashboard only: keys are created and revoked by people, never with a key (docs/spec.md).
export const keysRouter = router({
  list: userProcedure.meta({ permission: 'read_config' }).query(({ ctx }) => listApiKeys(ctx, ctx.actor)),

  create: userProcedure
    .meta({ permission: 'write_config' })
    .input(KeyCreateInput)
    .mutation(({ ctx, input }) => createApiKey(ctx, ctx.actor, input)),

  revoke: userProcedure
    .meta({ permission: 'write_config' })
    .input(KeyRevokeInput)
    .mutation(({ ctx, input }) => revokeKey(ctx, ctx.actor, input)),
});
