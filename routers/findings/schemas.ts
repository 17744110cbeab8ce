import { z } from 'zod';
import { CATEGORIES, FINDING_STATUSES, SEVERITIES } from '../../domain/vocabulary.ts';
import { Id, pageParams, Pagination, SeverityCounts, text, Timestamp, Uuid } from '../common.ts';

export const Finding = z.object({
  id: Id,
  scan_id: Id,
  site_id: Id,
  site_name: z.string(),
  site_url: z.string(),
  finding_type: z.string().meta({ description: 'Stabiele, machineleesbare snake_case-id', example: 'exposed_git_config' }),
  category: z.enum(CATEGORIES),
  severity: z.enum(SEVERITIES),
  status: z.enum(FINDING_STATUSES),
  title: z.string(),
  description: z.string(),
  impact: z.string(),
  remediation: z.string(),
  endpoint: z.string(),
  actual_value: z.string().nullable(),
  expected_value: z.string(),
  reference_url: z.string(),
  created_at: Timestamp,
}).meta({ id: 'Finding' });

export const FindingListInput = z.object({
  ...pageParams(50, 200),
  severity: z.enum(SEVERITIES).optional(),
  category: z.enum(CATEGORIES).optional(),
  status: z.enum(FINDING_STATUSES).optional(),
  site_id: Uuid.optional(),
  search: text().trim().min(1).max(200).optional().meta({ description: 'Zoekt (hoofdletterongevoelig) in titel en beschrijving' }),
}).prefault({});

export const FindingListOutput = z.object({
  findings: z.array(Finding),
  summary: SeverityCounts,
  pagination: Pagination,
});

export const FindingStatusInput = z.object({
  finding_id: Uuid,
  status: z.enum(FINDING_STATUSES),
  reason: text({ multiline: true }).max(2000).optional().meta({ description: 'Verplicht bij ACCEPTED_RISK' }),
});

export const FindingGetInput = z.object({ finding_id: Uuid });

export const FindingHistoryInput = z.object({ finding_ids: z.array(Uuid).min(1).max(200) });
