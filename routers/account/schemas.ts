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

const ClockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'verwacht een tijd zoals 22:00' });
export const MyNotificationSettings = z.object({
  alerts: z.boolean().meta({ description: 'Directe meldingen aan uw adres' }),
  digest: z.boolean().meta({ description: 'Overzichten aan uw adres' }),
  quiet_hours: z.object({ from: ClockTime, to: ClockTime, zone: z.string().min(1).max(64) }).nullable(),
  mutes: z.array(z.object({ site_id: Id, until: z.iso.datetime({ offset: true }) })).max(100),
  digest_at: z
    .object({
      hour: z.number().int().min(0).max(23),
      weekday: z.number().int().min(0).max(6).optional(),
      zone: z.string().min(1).max(64),
    })
    .nullable()
    .default(null)
    .meta({
      description: 'Wanneer uw overzichten komen (uur, voor wekelijkse ook de dag); null: op het uur van de regel',
    }),
});
