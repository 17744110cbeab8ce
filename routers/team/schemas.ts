import { z } from 'zod';
import { ROLES } from '../../domain/vocabulary.ts';
import { Uuid } from '../common.ts';

export const InviteInput = z.object({ email: z.email().max(254), role: z.enum(ROLES) });
export const RoleInput = z.object({ user_id: Uuid, role: z.enum(ROLES) });
export const BlockInput = z.object({ user_id: Uuid, blocked: z.boolean() });
