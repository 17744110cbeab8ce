import { z } from 'zod';
import { PERMISSIONS } from '../../domain/vocabulary.ts';
import { text, Uuid } from '../common.ts';

export const KeyCreateInput = z.object({
  name: text().trim().min(1).max(100),
  permissions: z.array(z.enum(PERMISSIONS)).min(1),
  rate_limit: z.number().int().min(1).max(100_000),
});

export const KeyRevokeInput = z.object({ key_id: Uuid });
