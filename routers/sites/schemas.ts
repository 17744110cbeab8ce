import { z } from 'zod';
import {
  CONTROL_METHODS,
  EXPIRY_KINDS,
  GRADES,
  PROOF_OUTCOMES,
  SCAN_INTERVAL_HOURS,
  SITE_PLATFORMS,
  VERIFICATION_METHODS,
  VERIFICATION_STATUSES,
} from '../../domain/vocabulary.ts';
import { CRAWL_LIMITS } from '../../scanner/crawl/crawl.ts';
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

export const SiteVerification = z
  .object({
    status: z.enum(VERIFICATION_STATUSES).meta({
      description:
        'verified: eigendom aangetoond, de scan mag ingrijpende tests doen; unverified: nooit aangetoond; lost: aangetoond en daarna verloren (weggehaald, of 7 dagen niet te controleren)',
    }),
    method: z
      .enum(VERIFICATION_METHODS)
      .nullable()
      .meta({ description: 'dns, file, meta of operator (de beheerder van de dienst)' }),
    covers: z.string().nullable().meta({
      description: 'De naam waarvoor het bewijs geldt; bij dns ook elke naam eronder',
    }),
    verified_at: Timestamp.nullable(),
    checked_at: Timestamp.nullable().meta({ description: 'Laatste controle van het bewijs' }),
    lost_at: Timestamp.nullable(),
    reason: z
      .string()
      .nullable()
      .meta({ description: 'De uitkomst van de laatste controle, of waarom het bewijs verloren ging' }),
  })
  .meta({ id: 'SiteVerification' });

const ProofCheckOutcome = z
  .object({
    outcome: z.enum(PROOF_OUTCOMES).meta({
      description:
        'present: gevonden; absent: niet gevonden; unknown: de site of de naamservers gaven geen uitsluitsel',
    }),
    reason: z.string(),
    checked_at: Timestamp,
  })
  .nullable();

export const VerificationInstructions = z
  .object({
    token: z.string().meta({
      description: 'Het token van dit account (minstens 128 willekeurige bits); alleen voor dit account zichtbaar',
    }),
    dns: z.object({ name: z.string(), value: z.string() }).meta({
      description: 'Een TXT-record: naam en waarde. Geldt voor die naam en elke naam eronder',
    }),
    file: z.object({ url: z.string(), body: z.string() }).meta({
      description:
        'Een tekstbestand (geen HTML, HTTP 200, klein) met het token op een eigen regel. Geldt voor die host, op http en https',
    }),
    meta: z.object({ tag: z.string() }).meta({
      description:
        'Een meta-tag in de <head> van de HTML van / zoals de server die stuurt (niet door een script geschreven). Geldt voor die host',
    }),
    checks: z
      .object(
        Object.fromEntries(CONTROL_METHODS.map((m) => [m, ProofCheckOutcome])) as Record<
          (typeof CONTROL_METHODS)[number],
          typeof ProofCheckOutcome
        >,
      )
      .meta({
        description: 'De laatste uitkomst per methode op deze site; null als die methode nog niet is gecontroleerd',
      }),
  })
  .meta({ id: 'VerificationInstructions' });

export const SiteVerifyInput = z.object({
  site_id: RequiredUuid,
  method: z
    .enum(CONTROL_METHODS)
    .optional()
    .meta({ description: 'Alleen deze methode controleren; zonder: alle drie' }),
});

const ScanInterval = z.number().int().min(SCAN_INTERVAL_HOURS.min).max(SCAN_INTERVAL_HOURS.max);

/** Pages per scan: the start page alone (1) up to the highest plan cap. */
export const MaxPages = z.number().int().min(1).max(CRAWL_LIMITS.maxPages);

/** A path pattern as robots.txt writes one: from the root, with `*` and a closing `$`. */
const PathPattern = text()
  .trim()
  .min(1)
  .max(200)
  .regex(/^\/[^\s]*$/, { message: 'een pad begint met / en bevat geen spaties, bijvoorbeeld /blog/ of /*.pdf$' });
export const PathPatterns = z.array(PathPattern).max(20);

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
    verification: SiteVerification,
    max_pages: MaxPages.meta({
      description:
        "Pagina's die een scan onderzoekt als het verzoek geen max_pages noemt (1: alleen de startpagina). Meer dan 1 alleen voor een site waarvan het eigendom is aangetoond",
    }),
    include_paths: PathPatterns.meta({
      description: 'Paden (robots.txt-patronen met * en $) waartoe een crawl zich beperkt; leeg: de hele site',
    }),
    exclude_paths: PathPatterns.meta({ description: 'Paden (robots.txt-patronen) die een crawl overslaat' }),
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

/** The settings PATCH /sites/{site_id} changes. */
const SITE_SETTINGS = ['scan_interval_hours', 'mail_domain', 'max_pages', 'include_paths', 'exclude_paths'] as const;

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
    max_pages: MaxPages.optional().meta({
      description: `Pagina's per scan als het verzoek niets noemt (1-${CRAWL_LIMITS.maxPages}, begrensd door het abonnement); weglaten laat het zoals het is`,
    }),
    include_paths: PathPatterns.optional().meta({
      description: 'Paden waartoe een crawl zich beperkt (robots.txt-patronen), hoogstens 20; [] voor de hele site',
    }),
    exclude_paths: PathPatterns.optional().meta({
      description: 'Paden die een crawl overslaat (robots.txt-patronen), hoogstens 20',
    }),
  })
  .refine((input) => SITE_SETTINGS.some((field) => input[field] !== undefined), {
    message: `Geef ten minste een van ${SITE_SETTINGS.join(', ')} mee.`,
  });

export const SiteListOutput = z.object({ sites: z.array(Site), pagination: Pagination });

export const SiteCreateInput = z.object({ name: text().trim().min(1).max(200), url: webUrl() });
