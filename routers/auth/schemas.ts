import { z } from 'zod';
import { PERMISSIONS } from '../../domain/vocabulary.ts';
import { Count, Uuid } from '../common.ts';

export const AuthInput = z.object({
  api_key: z.string().meta({ description: 'De volledige API-sleutel', example: 'sak_…' }),
});

export const ENDPOINTS = {
  scans: '/api/agent/scans',
  scan_trigger: '/api/agent/scan',
  findings: '/api/agent/findings',
  suggestions: '/api/agent/suggestions',
  docs: '/api/agent/docs',
  config: '/api/agent/config',
  webhooks: '/api/agent/webhooks',
  sites: '/api/agent/sites',
} as const;

export const AuthOutput = z.object({
  authenticated: z.literal(true),
  agent: z.object({
    key_id: Uuid,
    name: z.string(),
    permissions: z.array(z.enum(PERMISSIONS)),
    rate_limit: Count.min(1),
  }),
  endpoints: z.object(Object.fromEntries(Object.keys(ENDPOINTS).map((name) => [name, z.string()])) as Record<keyof typeof ENDPOINTS, z.ZodString>),
});
