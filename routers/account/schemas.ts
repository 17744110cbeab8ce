import { z } from 'zod';
import { ROLES } from '../../domain/vocabulary.ts';
import { Id, text } from '../common.ts';

const Email = z.email().max(254).meta({ description: 'E-mailadres' });
const Password = z.string().max(1024);

export const SignUpInput = z.object({ email: Email, password: Password, organisation: text().trim().min(1).max(200) });
export const LogInInput = z.object({ email: z.string().max(254), password: Password });

export const Me = z
  .object({ user_id: Id, tenant_id: Id, email: z.string(), role: z.enum(ROLES), is_staff: z.boolean() })
  .meta({ id: 'Me' });
export const AcceptInviteInput = z.object({ token: z.string().min(1).max(200), password: Password });
export const ChangePasswordInput = z.object({ current: Password, next: Password });
export const PasswordResetRequestInput = z.object({ email: z.string().trim().min(3).max(254) });
export const PasswordResetInput = z.object({ token: z.string().min(1).max(200), password: Password });
