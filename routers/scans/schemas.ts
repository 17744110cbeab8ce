import { z } from 'zod';
import { CHECK_NAMES, COVERAGE_STATUSES, TEST_NAMES } from '../../scanner/index.ts';
import { INTERNETNL_STATUSES } from '../../scanner/report/internetnl.ts';
import { CRAWL_LIMITS } from '../../scanner/crawl/crawl.ts';
import { MAX_AFFECTED_URLS } from '../../scanner/crawl/page-findings.ts';
import { MaxPages } from '../sites/schemas.ts';
import {
  CRAWL_LIMITS_BY,
  CRAWL_SKIPS,
  CRAWL_STOPS,
  PAGE_SOURCES,
  ROBOTS_VERDICTS,
  type CrawlSkip,
  CATEGORY_SCORES,
  INTERNETNL_CATEGORIES,
  MAIL_CATEGORIES,
  MAIL_STATUSES,
  MX_STATUSES,
  SMTP_STATES,
  type CategoryScoreField,
  type InternetNlCategory,
  type MailCategory,
} from '../../scanner/vocabulary.ts';
import { GRADES, SEVERITIES, SITE_PLATFORMS, SCAN_TRIGGERS, WEB_SERVERS } from '../../domain/vocabulary.ts';
import {
  Count,
  Id,
  IsoMoment,
  pageParams,
  Pagination,
  RequiredUuid,
  Score,
  SeverityCounts,
  webUrl,
  Timestamp,
  Uuid,
} from '../common.ts';
import { FindingWithFixes } from '../findings/schemas.ts';

export const ScanTriggerInput = z.object({
  site_id: RequiredUuid,
  url: webUrl()
    .optional()
    .meta({ description: 'Overschrijft de URL van de site; moet op dezelfde host of een subdomein liggen' }),
  max_pages: MaxPages.optional().meta({
    description: `Hoeveel pagina's de scan onderzoekt, de startpagina meegeteld (1-${CRAWL_LIMITS.maxPages}, begrensd door het abonnement); standaard de instelling van de site. Een site waarvan het eigendom niet is aangetoond krijgt er 1`,
  }),
  pages: z
    .array(webUrl())
    .max(CRAWL_LIMITS.givenPages)
    .optional()
    .meta({
      description: `Pagina's op de origin van de site die de scan zeker onderzoekt (hoogstens ${CRAWL_LIMITS.givenPages}), ook als robots.txt ze uitsluit; alleen voor een site waarvan het eigendom is aangetoond`,
    }),
});

const FailedChecks = z.array(z.enum(CHECK_NAMES)).meta({
  description:
    'Controles die niet konden worden uitgevoerd (fout in de controle of scan-deadline bereikt); hun bevindingen ontbreken in deze scan. Leeg als alles is gecontroleerd.',
});

export const ScanCreated = z
  .object({
    scan_id: Id,
    site_id: Id,
    url: z.string(),
    score: Score,
    grade: z.enum(GRADES),
    counts: SeverityCounts,
    findings_count: Count,
    scanned_at: Timestamp,
    detail_url: z.string().meta({ example: '/api/agent/scans/3f2b8c1e-9a4d-4e2f-8b1a-2c3d4e5f6a7b' }),
  })
  .meta({ id: 'Scan' });

export const ScanListInput = z
  .object({
    ...pageParams(20, 100),
    site_id: Uuid.optional(),
    grade: z.enum(GRADES).optional(),
    since: IsoMoment.optional().meta({ description: 'Alleen scans na dit moment' }),
    until: IsoMoment.optional().meta({ description: 'Alleen scans voor dit moment' }),
  })
  .prefault({});

/** ssl_score, headers_score, endpoints_score: one sub-score per category, from the one table of them. */
const categoryScores = Object.fromEntries(Object.values(CATEGORY_SCORES).map(({ field }) => [field, Score])) as Record<
  CategoryScoreField,
  typeof Score
>;

export const ScanListItem = z
  .object({
    id: Id,
    site_id: Id,
    site_name: z.string(),
    site_url: z.string(),
    score: Score,
    grade: z.enum(GRADES),
    ...categoryScores,
    detected_platform: z.enum(SITE_PLATFORMS).nullable(),
    findings_count: Count,
    critical_count: Count,
    high_count: Count,
    medium_count: Count,
    low_count: Count,
    scanned_at: Timestamp,
    trigger: z
      .enum(SCAN_TRIGGERS)
      .meta({ description: 'Wat de scan startte: api (een agent), schedule (het scanschema), dashboard of cli' }),
  })
  .meta({ id: 'ScanListItem' });

export const ScanListOutput = z.object({ scans: z.array(ScanListItem), pagination: Pagination });

export const ScanGetInput = z.object({ scan_id: RequiredUuid });

export const SarifLog = z
  .object({
    $schema: z.string(),
    version: z.literal('2.1.0'),
    runs: z.array(z.record(z.string(), z.unknown())),
  })
  .meta({
    id: 'SarifLog',
    description: 'SARIF 2.1.0 (OASIS); zie https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html',
  });

const ScoreBreakdown = z
  .object({
    start: Score,
    items: z.array(z.object({ finding_id: Id, finding_type: z.string(), points: z.number().int().max(0) })),
    caps: z.array(z.object({ reason: z.string(), max: Score })),
  })
  .meta({
    id: 'ScoreBreakdown',
    description: 'start plus de som van points, begrensd op 0-100 en daarna op de laagste caps.max, is precies score',
  });

export const ScanChanges = z
  .object({
    compared_to_scan_id: Id.nullable().meta({ description: 'De scan waarmee vergeleken is; null bij de eerste scan' }),
    new: z.array(Id).meta({ description: 'Bevindingen die voor het eerst gezien zijn' }),
    regressed: z.array(Id).meta({ description: 'Bevindingen die opgelost waren en weer gezien zijn' }),
    resolved: z.array(Id).meta({ description: 'Bevindingen die niet meer gezien zijn' }),
    severity_changed: z.array(z.object({ finding_id: Id, from: z.enum(SEVERITIES), to: z.enum(SEVERITIES) })),
    escalated: z.array(z.object({ finding_id: Id, from_finding_id: Id })).meta({
      description:
        'Een bevinding vervangen door een ernstiger van dezelfde soort (certificaat 30 → 14 dagen → verlopen)',
    }),
    unverified: z.array(Id).meta({
      description:
        'Open bevindingen die deze scan niet opnieuw kon controleren (zie coverage): niet gezien, maar ook niet opgelost; hun status blijft',
    }),
  })
  .meta({ id: 'ScanChanges' });

export const ScanChangesInput = z.object({
  scan_id: RequiredUuid,
  against: Uuid.optional().meta({ description: 'Een andere scan van dezelfde site; zonder: de vorige scan' }),
});

const InternetNlStatus = z.enum(INTERNETNL_STATUSES);
const InternetNlCategoryResult = z.object({
  status: InternetNlStatus,
  score: z.number().int().min(0).max(100).nullable(),
  tests: z.array(z.object({ name: z.string(), status: InternetNlStatus, detail: z.string() })),
});
export const InternetNl = z
  .object({
    score: z.number().int().min(0).max(100).nullable().meta({
      description:
        'Het gemiddelde van de geteste categorieën, zoals internet.nl het berekent; null als er geen getest is',
    }),
    categories: z.object(
      Object.fromEntries(INTERNETNL_CATEGORIES.map((c) => [c, InternetNlCategoryResult])) as Record<
        InternetNlCategory,
        typeof InternetNlCategoryResult
      >,
    ),
  })
  .meta({
    id: 'InternetNl',
    description:
      'De websitetest van internet.nl (IPv6, DNSSEC, HTTPS/TLS, RPKI); los van grade en de *_score-velden. Null voor scans zonder deze test.',
  });

const MailExtra = z.object({ status: InternetNlStatus, detail: z.string() });

export const Mail = z
  .object({
    domain: z.string().meta({ description: 'Het geteste maildomein: standaard het registreerbare domein van de host' }),
    status: z.enum(MAIL_STATUSES).meta({
      description:
        'tested; not_applicable (een platformdomein zoals *.vercel.app: het platform beheert die DNS); error (DNS-fout)',
    }),
    reason: z.string().nullable().meta({ description: 'Waarom niet getest of waarom een fout; null als getest' }),
    mx_status: z
      .enum(MX_STATUSES)
      .nullable()
      .meta({ description: 'has_mx, null_mx (RFC 7505) of no_mx; null zonder DNS-antwoord' }),
    mx: z
      .array(z.object({ host: z.string(), preference: z.number().int(), addresses: z.array(z.string()) }))
      .meta({ description: 'De MX-records, gesorteerd op voorkeur, hoogstens 10' }),
    internetnl: z
      .object({
        score: z.number().int().min(0).max(100).nullable().meta({
          description: 'Het gemiddelde van de geteste categorieën (elk 20%), zoals internet.nl de mailtest berekent',
        }),
        categories: z.object(
          Object.fromEntries(MAIL_CATEGORIES.map((c) => [c, InternetNlCategoryResult])) as Record<
            MailCategory,
            typeof InternetNlCategoryResult
          >,
        ),
      })
      .nullable(),
    extras: z
      .object({ mta_sts: MailExtra, tls_rpt: MailExtra, bimi: MailExtra })
      .meta({ description: 'Wat internet.nl niet test: MTA-STS (RFC 8461), TLS-RPT (RFC 8460) en BIMI (informatief)' }),
    smtp: z
      .object({
        state: z.enum(SMTP_STATES),
        reason: z.string().nullable(),
        tested_at: Timestamp.nullable(),
      })
      .meta({
        description:
          'Het SMTP-deel (STARTTLS, TLS en DANE per MX), alleen met SCANNER_SMTP: pending loopt nog na de scan; cached komt uit de gedeelde cache van 24 uur',
      }),
    fixes: z
      .array(
        z.object({
          fixes: z.string(),
          name: z.string(),
          type: z.enum(['TXT', 'HTTPS']),
          value: z.string(),
        }),
      )
      .meta({ description: 'Het record om te publiceren voor wat faalt, ingevuld voor het domein' }),
  })
  .meta({
    id: 'Mail',
    description:
      'De mailtest van internet.nl (IPv6, DNSSEC, SPF/DKIM/DMARC, STARTTLS/DANE, RPKI) met MTA-STS, TLS-RPT en BIMI; los van grade en de *_score-velden. Null als de mailtest voor de site uit staat.',
  });

const CoverageEntry = z
  .object({
    test: z.enum(TEST_NAMES),
    subject: z.string().meta({ description: 'Waarop de test liep: een host, een origin of een URL (een script)' }),
    status: z.enum(COVERAGE_STATUSES),
    reason: z.string().nullable().meta({ description: 'Waarom de test niet is voltooid; null als hij voltooid is' }),
  })
  .meta({ id: 'CoverageEntry' });

const Coverage = z.array(CoverageEntry).meta({
  description:
    'Wat de scan heeft gecontroleerd: per test en onderwerp completed, failed, skipped of not_applicable met de reden. Een bevinding wordt alleen opgelost door een test die op haar plek completed is. Leeg voor scans van voor deze registratie.',
});

const ScanDetailFinding = FindingWithFixes.extend({
  affected_urls: z
    .array(z.string())
    .nullable()
    .meta({
      description: `De pagina's waar de scan deze bevinding zag, in crawlvolgorde (hoogstens ${MAX_AFFECTED_URLS}); null voor wat eenmaal per site wordt beoordeeld (TLS, blootgestelde paden)`,
    }),
  affected_count: z.number().int().min(0).nullable().meta({
    description: "Op hoeveel pagina's de scan deze bevinding zag; null zoals affected_urls",
  }),
}).meta({ id: 'ScanDetailFinding' });

const Crawl = z
  .object({
    max_pages: z.number().int().min(1).meta({ description: "Hoeveel pagina's de scan mocht onderzoeken" }),
    visited: Count.meta({ description: "Hoeveel pagina's de scan bezocht, de startpagina meegeteld" }),
    stopped_by: z.enum(CRAWL_STOPS).nullable().meta({
      description:
        "Waarom de crawl stopte voordat hij alle gevonden pagina's had bezocht: max_pages, bytes (8 MiB HTML), time (de eigen tijdslimiet) of deadline (die van de scan); null als er niets meer te bezoeken was",
    }),
    skipped: z
      .object(Object.fromEntries(CRAWL_SKIPS.map((cause) => [cause, Count])) as Record<CrawlSkip, typeof Count>)
      .meta({
        description:
          "Gevonden URL's die niet zijn bezocht, per oorzaak: robots (robots.txt), off_origin (andere origin), not_html (geen HTML), template_duplicate (al twee pagina's van hetzelfde sjabloon), excluded (querystring, uitlog- of verwijderlink, of de paden van de site)",
      }),
    limited_by: z.enum(CRAWL_LIMITS_BY).nullable().meta({
      description:
        'Waarom max_pages lager is dan gevraagd: unverified (eigendom niet aangetoond: alleen de startpagina) of plan (het maximum van het abonnement); null als dat niet zo is',
    }),
  })
  .meta({ id: 'Crawl' });

const CrawledPage = z
  .object({
    url: z.string(),
    source: z.enum(PAGE_SOURCES).meta({
      description:
        'start (de startpagina), given (genoemd in het verzoek), previous (waar open bevindingen eerder zijn gezien), sitemap of link',
    }),
    status: z.number().int().nullable().meta({ description: 'De HTTP-status; null zonder antwoord' }),
    content_type: z.string().nullable(),
    robots: z.enum(ROBOTS_VERDICTS).nullable().meta({
      description:
        'Wat robots.txt over de pagina zegt; een genoemde pagina wordt ook bij disallowed onderzocht. Null als robots.txt niet is gelezen (een scan van één pagina)',
    }),
  })
  .meta({ id: 'CrawledPage' });

export const ScanDetail = ScanListItem.extend({
  url: z.string(),
  detected_server: z.enum(WEB_SERVERS).nullable().meta({
    description:
      'De webserver of het randplatform dat antwoordde, uit Server, Via en leverancierheaders of de eigen 404-pagina',
  }),
  score_breakdown: ScoreBreakdown,
  failed_checks: FailedChecks,
  coverage: Coverage,
  unreachable: z.string().nullable().meta({
    description: 'Waarom de scan geen pagina van de site bereikte (alle tests failed); null als de site antwoordde',
  }),
  passive: z.boolean().meta({
    description:
      'true: een passieve scan. Het eigendom van de site was niet aangetoond, dus de ingrijpende tests (blootgestelde paden, backends via hun sleutels, de middleware-bypass, WordPress-bestanden, poort 25) zijn overgeslagen; coverage noemt ze skipped met de reden en hun bevindingen blijven open',
  }),
  findings: z.array(ScanDetailFinding),
  crawl: Crawl,
  pages: z.array(CrawledPage).meta({ description: "De bezochte pagina's, de startpagina eerst, in crawlvolgorde" }),
  internetnl: InternetNl.nullable(),
  mail: Mail.nullable(),
  changes: ScanChanges.meta({ description: 'Wat deze scan veranderde ten opzichte van de vorige scan van de site' }),
}).meta({ id: 'ScanDetail' });
