import { z } from 'zod';
import { EXPIRY_KINDS, GRADES, SITE_PLATFORMS, SCAN_INTERVAL_HOURS } from '../../domain/vocabulary.ts';
import { Id, pageParams, Pagination, RequiredUuid, Score, text, Timestamp, webUrl } from '../common.ts';

export const SiteListInput = z
  .object({
    ...pageParams(20, 100),
    platform: z.enum(SITE_PLATFORMS).optional().meta({ description: 'Alleen sites met dit gedetecteerde platform' }),
  })
  .prefault({});

export const SiteGetInput = z.object({ site_id: RequiredUuid });

export const SiteExpiries = z
  .object({
    expiries: z.array(
      z.object({
        kind: z
          .enum(EXPIRY_KINDS)
          .meta({ description: 'certificate (het eigen certificaat), intermediate of security_txt' }),
        subject: z.string().meta({
          description:
            'Onderwerp van het certificaat of URL van security.txt; tekst van de gescande site, opgeschoond en begrensd',
        }),
        not_after: Timestamp,
        days_left: z.number().int().meta({ description: 'Hele dagen tot de einddatum; negatief als die voorbij is' }),
        scan_id: Id,
      }),
    ),
  })
  .meta({ id: 'SiteExpiries' });

const ScanInterval = z.number().int().min(SCAN_INTERVAL_HOURS.min).max(SCAN_INTERVAL_HOURS.max);

export const Site = z
  .object({
    id: Id,
    name: z.string(),
    url: z.string(),
    detected_platform: z.enum(SITE_PLATFORMS).nullable(),
    created_at: Timestamp,
    latest_scan: z
      .object({ id: Id, score: Score, grade: z.enum(GRADES), scanned_at: Timestamp })
      .nullable()
      .meta({ description: 'De laatste scan van de site; null als de site nog niet is gescand' }),
    mail_domain: z.string().nullable().meta({
      description:
        'Het domein van de mailtest: standaard het registreerbare domein van de host; null als de mailtest uit staat of de host onder een platformdomein valt',
    }),
    scan_interval_hours: ScanInterval.nullable().meta({
      description: 'Uren tussen geplande scans; null als er geen schema is',
    }),
    next_scan_at: Timestamp.nullable().meta({
      description: 'Wanneer de volgende geplande scan op zijn vroegst loopt; null zonder schema',
    }),
  })
  .meta({ id: 'Site' });

/** A domain name as DNS takes it: labels of letters, digits and hyphens, at least two. */
export const MailDomain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+\.?$/, {
    message: 'mail_domain: verwacht een domeinnaam zoals winkel.nl',
  })
  .transform((domain) => domain.replace(/\.$/, ''));

export const SiteUpdateInput = z
  .object({
    site_id: RequiredUuid,
    scan_interval_hours: ScanInterval.nullable()
      .optional()
      .meta({
        description: `Elke zoveel uur een geplande scan (${SCAN_INTERVAL_HOURS.min}-${SCAN_INTERVAL_HOURS.max}), of null om het schema uit te zetten; weglaten laat het zoals het is`,
      }),
    mail_domain: MailDomain.nullable().optional().meta({
      description:
        'Het domein waarop de mailtest loopt (een domeinnaam), of null om de mailtest uit te zetten; weglaten laat het zoals het is',
    }),
  })
  .refine((input) => input.scan_interval_hours !== undefined || input.mail_domain !== undefined, {
    message: 'Geef scan_interval_hours of mail_domain mee.',
  });

export const SiteListOutput = z.object({ sites: z.array(Site), pagination: Pagination });

export const SiteCreateInput = z.object({ name: text().trim().min(1).max(200), url: webUrl() });
