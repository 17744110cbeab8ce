import { API_PATHS } from '../../domain/endpoints.ts';
import { addAndShowSite, getSite, listSites } from '../../services/sites.ts';
import { Id, PROTECTED_ERRORS, Timestamp } from '../common.ts';
import { operationProcedure, router, userProcedure } from '../trpc.ts';
import { restOperation } from '../operations.ts';
import { updateSite } from '../../services/schedules.ts';
import { getSiteMail } from '../../services/mail.ts';
import { Mail } from '../scans/schemas.ts';
import { siteExpiries } from '../../services/expiries.ts';
import { siteTimeline } from '../../services/scan-changes.ts';
import {
  Site,
  SiteCreateInput,
  SiteExpiries,
  SiteGetInput,
  SiteListInput,
  SiteListOutput,
  SiteUpdateInput,
  SiteVerification,
  SiteVerifyInput,
  VerificationInstructions,
} from './schemas.ts';
import { getVerification, verifySite } from '../../services/verification.ts';

export const listOperation = restOperation({
  meta: {
    permission: 'read_scans',
    openapi: {
      method: 'GET',
      path: API_PATHS.sites,
      tags: ['sites'],
      summary: 'Sites van dit account met hun laatste scan',
      protect: true,
      errorResponses: PROTECTED_ERRORS,
    },
  },
  input: SiteListInput,
  output: SiteListOutput,
});

export const getOperation = restOperation({
  meta: {
    permission: 'read_scans',
    openapi: {
      method: 'GET',
      path: API_PATHS.site,
      tags: ['sites'],
      summary: 'Eén site met zijn laatste scan',
      protect: true,
      errorResponses: [...PROTECTED_ERRORS, 404],
    },
  },
  input: SiteGetInput,
  output: Site,
});

export const updateOperation = restOperation({
  meta: {
    permission: 'write_config',
    openapi: {
      method: 'PATCH',
      path: API_PATHS.site,
      tags: ['sites'],
      summary: 'Scanschema en maildomein van een site instellen',
      protect: true,
      errorResponses: [...PROTECTED_ERRORS, 404],
    },
  },
  input: SiteUpdateInput,
  output: Site,
});

export const expiriesOperation = restOperation({
  meta: {
    permission: 'read_scans',
    openapi: {
      method: 'GET',
      path: API_PATHS.site_expiries,
      tags: ['sites'],
      summary: 'Wat wanneer verloopt: certificaat, tussencertificaten en security.txt, eerstvolgende eerst',
      description: 'Uit de laatste scan van de site; days_left telt vanaf nu en is negatief na de einddatum.',
      protect: true,
      errorResponses: [...PROTECTED_ERRORS, 404],
    },
  },
  input: SiteGetInput,
  output: SiteExpiries,
});

export const mailOperation = restOperation({
  meta: {
    permission: 'read_scans',
    openapi: {
      method: 'GET',
      path: API_PATHS.site_mail,
      tags: ['sites'],
      summary: 'De laatste mailtest van een site (internet.nl), met het SMTP-deel zoals het nu is',
      description:
        'Uit de laatste scan met een mailtest; het SMTP-deel (SCANNER_SMTP) komt na de scan binnen. 404 als de site nog geen mailtest heeft.',
      protect: true,
      errorResponses: [...PROTECTED_ERRORS, 404],
    },
  },
  input: SiteGetInput,
  output: Mail.extend({ scan_id: Id, scanned_at: Timestamp }),
});

export const verificationOperation = restOperation({
  meta: {
    permission: 'read_config',
    openapi: {
      method: 'GET',
      path: API_PATHS.site_verification,
      tags: ['sites'],
      summary: 'Wat te publiceren om het eigendom van een site aan te tonen, en de laatste controle per methode',
      description:
        'Zonder aangetoond eigendom doet een scan alleen wat een browser doet (passief). Publiceer één van de drie (DNS-record, bestand of meta-tag) en roep daarna POST .../verify aan.',
      protect: true,
      errorResponses: [...PROTECTED_ERRORS, 404],
    },
  },
  input: SiteGetInput,
  output: VerificationInstructions,
});

export const verifyOperation = restOperation({
  meta: {
    permission: 'write_config',
    openapi: {
      method: 'POST',
      path: API_PATHS.site_verify,
      tags: ['sites'],
      summary: 'Het eigendom van een site nu controleren (alle methoden, of de gegeven)',
      description:
        'Vraagt het altijd opnieuw na, nooit uit een cache. Per site beperkt: een snellere aanroep krijgt 429 met Retry-After.',
      protect: true,
      errorResponses: [...PROTECTED_ERRORS, 404],
    },
  },
  input: SiteVerifyInput,
  output: SiteVerification,
});

export const sitesRouter = router({
  list: operationProcedure(listOperation).query(({ ctx, input }) => listSites(ctx, ctx.actor, input)),

  get: operationProcedure(getOperation).query(({ ctx, input }) => getSite(ctx, ctx.actor, input)),

  /** Dashboard only: the site's latest scans with how many findings each kind of change touched. */
  timeline: userProcedure
    .meta({ permission: 'read_scans' })
    .input(SiteGetInput)
    .query(({ ctx, input }) => siteTimeline(ctx, ctx.actor, input)),

  expiries: operationProcedure(expiriesOperation).query(({ ctx, input }) => siteExpiries(ctx, ctx.actor, input)),

  update: operationProcedure(updateOperation).mutation(({ ctx, input }) => updateSite(ctx, ctx.actor, input)),

  mail: operationProcedure(mailOperation).query(({ ctx, input }) => getSiteMail(ctx, ctx.actor, input)),

  verification: operationProcedure(verificationOperation).query(({ ctx, input }) =>
    getVerification(ctx, ctx.actor, input),
  ),

  verify: operationProcedure(verifyOperation).mutation(({ ctx, input }) => verifySite(ctx, ctx.actor, input)),

  /** Dashboard only: people add sites (agents scan the ones they have). */
  create: userProcedure
    .meta({ permission: 'write_config' })
    .input(SiteCreateInput)
    .mutation(({ ctx, input }) => addAndShowSite(ctx, ctx.actor, input)),
});
