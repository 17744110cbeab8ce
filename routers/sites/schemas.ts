import { z } from 'zod';
import { GRADES, PLATFORMS } from '../../domain/vocabulary.ts';
import { pageParams, Pagination, RequiredUuid, Score, Timestamp, Uuid } from '../common.ts';

export const SiteListInput = z.object({
  ...pageParams(20, 100),
  platform: z.enum(PLATFORMS).optional().meta({ description: 'Alleen sites met dit gedetecteerde platform' }),
}).prefault({});

export const SiteGetInput = z.object({ site_id: RequiredUuid });

export const Site = z.object({
  id: Uuid,
  name: z.string(),
  url: z.string(),
  detected_platform: z.enum(PLATFORMS).nullable(),
  created_at: Timestamp,
  latest_scan: z
    .object({ id: Uuid, score: Score, grade: z.enum(GRADES), scanned_at: Timestamp })
    .nullable()
    .meta({ description: 'De laatste scan van de site; null als de site nog niet is gescand' }),
}).meta({ id: 'Site' });

export const SiteListOutput = z.object({ sites: z.array(Site), pagination: Pagination });
