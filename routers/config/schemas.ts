import { z } from 'zod';
import { PLATFORMS } from '../../server/vocabulary.ts';
import { Uuid } from '../common.ts';

export const ConfigOutput = z.object({
  platform: z.object({ name: z.string(), version: z.string(), description: z.string() }),
  stats: z.object({
    total_sites: z.number().int(),
    platforms: z.record(z.enum(PLATFORMS), z.number().int()),
    total_tenants: z.number().int(),
    active_tenants: z.number().int(),
  }),
  plans: z.array(
    z.object({
      id: Uuid,
      name: z.string(),
      tier: z.string(),
      monthly_price_eur: z.number().int().meta({ description: 'Bedrag in eurocent' }),
      max_sites: z.number().int(),
      max_api_calls_per_month: z.number().int(),
      max_scans_per_month: z.number().int(),
      features: z.array(z.string()),
    }),
  ),
  feature_flags: z.array(z.object({ key: z.string(), description: z.string(), enabled: z.boolean(), rollout_percentage: z.number().int() })),
  scanner: z.object({
    categories: z.array(z.string()),
    severity_levels: z.array(z.string()),
    grades: z.array(z.string()),
    supported_platforms: z.array(z.string()),
  }),
  api: z.object({ version: z.string(), rate_limit_default: z.number().int(), permissions: z.array(z.string()) }),
});
