import { z } from 'zod';
import { REVIEW_STATUSES, SUGGESTION_STATUSES } from '../../domain/vocabulary.ts';
import { pageParams, text, Uuid } from '../common.ts';

export const QueueInput = z.object({
  status: z.enum(SUGGESTION_STATUSES).optional(),
  ...pageParams(50, 100),
});
export const ReviewInput = z.object({
  suggestion_id: Uuid,
  status: z.enum(REVIEW_STATUSES),
  notes: text({ multiline: true }).max(5000).optional(),
});
export const SuspendInput = z.object({ tenant_id: Uuid, suspended: z.boolean() });
export const StaffBlockInput = z.object({ user_id: Uuid, blocked: z.boolean() });
export const TenantInput = z.object({ tenant_id: Uuid });
