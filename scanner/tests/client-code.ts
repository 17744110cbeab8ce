import { checkClientSecrets, checkFirebase, checkSupabaseTables } from '../checks/client-code.ts';
import { SECRET_KIND_NAMES, secretFindingType } from '../secrets/secret-rules.ts';
import { defineTest, failureReason, pageOriginOf, REASONS, type SubjectCoverage } from './test.ts';

/**
 * The JavaScript the page runs and every chunk it can load: live credentials, and the Supabase and
 * Firebase backends it talks to (what anyone may read, counted). A script that was not read whole
 * is a subject of its own, failed or skipped, so the findings in it stay as they are.
 */
export const clientCodeTest = defineTest({
  name: 'client_code',
  category: 'EXPOSED_ENDPOINT',
  subject: 'script',
  readsPage: true,
  produces: [
    ...SECRET_KIND_NAMES.map(secretFindingType),
    'supabase_table_personal_data_readable',
    'supabase_table_readable',
    'firebase_database_open_personal',
    'firebase_database_open',
    'firebase_storage_listable',
  ],
  checks: { client_secrets: checkClientSecrets, supabase_tables: checkSupabaseTables, firebase: checkFirebase },
  subjectOf: pageOriginOf,
  gate: ({ site }) => (site.facts ? null : { status: 'not_applicable', reason: 'geen HTML-pagina' }),
  probe: async ({ clientCode }) => ({ clientCode: await clientCode() }),
  coverage: (ctx, { client }, subject) => [
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
  ],
});
