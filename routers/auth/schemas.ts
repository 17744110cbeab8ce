import { z } from 'zod';
import { API_PATHS } from '../../domain/endpoints.ts';
import { PERMISSIONS } from '../../domain/vocabulary.ts';
import { Count, Id } from '../common.ts';

export const AuthInput = z.object({
  api_key: z.string().meta({ description: 'De volledige API-sleutel', example: 'sak_…' }),
});

/** The endpoints docs/spec.md 2.1 lists in the auth answer, from the one table of paths. */
export const ENDPOINTS = {
  scans: API_PATHS.scans,
  scan_trigger: API_PATHS.scan_trigger,
  findings: API_PATHS.findings,
  suggestions: API_PATHS.suggestions,
  docs: API_PATHS.docs,
  config: API_PATHS.config,
  webhooks: API_PATHS.webhooks,
  sites: API_PATHS.sites,
} as const;

export const AuthOutput = z.object({
  authenticated: z.literal(true),
  agent: z.object({
    key_id: Id,
    name: z.string(),
    permissions: z.array(z.enum(PERMISSIONS)),
    rate_limit: Count.min(1),
  }),
  endpoints: z.object(
    Object.fromEntries(Object.keys(ENDPOINTS).map((name) => [name, z.string()])) as Record<
      keyof typeof ENDPOINTS,
      z.ZodString
    >,
  ),
});
