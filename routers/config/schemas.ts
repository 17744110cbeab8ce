import { z } from 'zod';
import { SITE_PLATFORMS, VULNDATA_SOURCES } from '../../domain/vocabulary.ts';
import { Count, Id } from '../common.ts';

export const ConfigOutput = z.object({
  platform: z.object({ name: z.string(), version: z.string(), description: z.string() }),
  stats: z.object({
    total_sites: Count,
    platforms: z.object(
      Object.fromEntries(SITE_PLATFORMS.map((platform) => [platform, Count])) as Record<
        (typeof SITE_PLATFORMS)[number],
        typeof Count
      >,
    ),
    total_tenants: Count,
    active_tenants: Count,
  }),
  plans: z.array(
    z.object({
      id: Id,
      name: z.string(),
      tier: z.string(),
      monthly_price_eur: Count.meta({ description: 'Bedrag in eurocent' }),
      max_sites: Count,
      max_api_calls_per_month: Count,
      max_scans_per_month: Count,
      min_scan_interval_hours: Count.min(1).meta({
        description: 'Kortste interval van geplande scans dat het abonnement toestaat',
      }),
      features: z.array(z.string()),
    }),
  ),
  feature_flags: z.array(
    z.object({ key: z.string(), description: z.string(), enabled: z.boolean(), rollout_percentage: Count.max(100) }),
  ),
  scanner: z.object({
    categories: z.array(z.string()),
    severity_levels: z.array(z.string()),
    grades: z.array(z.string()),
    supported_platforms: z.array(z.string()),
    vulnerability_data: z
      .array(
        z.object({
          source: z.enum(VULNDATA_SOURCES),
          updated_at: z
            .string()
            .meta({ description: 'Wanneer de gegevens voor het laatst actueel waren bij de bron (ISO 8601)' }),
          records: Count.meta({ description: 'Aantal kwetsbaarheidsmeldingen' }),
          stale: z.boolean().meta({
            description:
              'Ouder dan VULNDATA_MAX_AGE_DAYS: bevindingen komen nog, met een waarschuwing; na 90 dagen telt de test niet als voltooid',
          }),
          age_days: Count,
          complete: z
            .boolean()
            .meta({ description: 'false voor een deelverzameling (het meegeleverde Wordfence-uittreksel)' }),
          licence: z.string(),
        }),
      )
      .meta({ description: 'De kwetsbaarheidsgegevens waarmee versies worden beoordeeld, met hun leeftijd' }),
  }),
  api: z.object({
    version: z.string(),
    rate_limit_default: Count,
    permissions: z.array(z.string()),
    webhook_events: z.array(z.string()).meta({ description: 'Gebeurtenissen waarop een webhook zich kan abonneren' }),
    scan_triggers: z.array(z.string()).meta({ description: 'Waarden van het veld trigger van een scan' }),
  }),
});
