import { checkClientSecrets, checkFirebase, checkSupabaseTables } from '../checks/client-code.ts';
import type { AnalysisContext } from '../checks/context.ts';
import type { HttpClient } from '../net/http-client.ts';
import { probeBackends } from '../probes/client-code.ts';
import type { SiteContact } from '../probes/retriever.ts';
import { SECRET_KIND_NAMES, secretFindingType } from '../secrets/secret-rules.ts';
import { defineTest, failureReason, pageOriginOf, REASONS, type SubjectCoverage } from './test.ts';

const htmlPage = ({ site }: { site: SiteContact }) =>
  site.facts ? null : { status: 'not_applicable' as const, reason: 'geen HTML-pagina' };

/** The page's origin, then every script that was not read whole as a subject of its own, failed or skipped. */
function scriptCoverage(ctx: AnalysisContext, { client }: { client: HttpClient }, subject: string): SubjectCoverage[] {
  return [
    { subject, status: 'completed', reason: null },
    ...(ctx.evidence.clientCode?.unread ?? []).map(
      ({ url, failure }): SubjectCoverage =>
        failure === 'limit'
          ? { subject: url, status: 'skipped', reason: 'buiten de grenzen van de scan' }
          : {
              subject: url,
              status: 'failed',
              reason: typeof failure === 'number' ? REASONS.unavailable(failure) : failureReason(failure, client),
            },
    ),
  ];
}

/**
 * The JavaScript the page runs and every chunk it can load, read as a visitor's browser loads it:
 * live credentials in it. A script that was not read whole is a subject of its own, failed or
 * skipped, so the findings in it stay as they are.
 */
export const clientCodeTest = defineTest({
  name: 'client_code',
  category: 'EXPOSED_ENDPOINT',
  subject: 'script',
  reach: 'passive',
  crawl: 'scripts',
  readsPage: true,
  produces: SECRET_KIND_NAMES.map(secretFindingType),
  checks: { client_secrets: checkClientSecrets },
  subjectOf: pageOriginOf,
  gate: htmlPage,
  probe: async ({ clientCode }) => ({ clientCode: await clientCode() }),
  coverage: scriptCoverage,
});

/**
 * The Supabase and Firebase backends those scripts call, asked with the public keys beside them what
 * anyone may read (counted, never downloaded): no browser does this for the page, so it is intrusive.
 */
export const clientBackendsTest = defineTest({
  name: 'client_backends',
  category: 'EXPOSED_ENDPOINT',
  subject: 'script',
  reach: 'intrusive',
  crawl: 'scripts',
  readsPage: true,
  produces: [
    'supabase_table_personal_data_readable',
    'supabase_table_readable',
    'firebase_database_open_personal',
    'firebase_database_open',
    'firebase_storage_listable',
  ],
  checks: { supabase_tables: checkSupabaseTables, firebase: checkFirebase },
  subjectOf: pageOriginOf,
  gate: htmlPage,
  probe: async ({ client, options, clientCode }) => ({
    backends: await probeBackends(client, (await clientCode()).references, options),
  }),
  coverage: scriptCoverage,
});
