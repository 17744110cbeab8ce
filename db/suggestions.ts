import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { ActorKind, SuggestionStatus, SuggestionType } from '../domain/vocabulary.ts';
import type { DB } from './database.ts';
import type { SuggestionsTable } from './schema.ts';

export type SuggestionRow = Selectable<SuggestionsTable>;

export interface NewSuggestion {
  type: SuggestionType;
  title: string;
  description: string;
  diff?: string;
  file_path?: string;
  metadata?: Record<string, unknown>;
}

export async function insertSuggestion(
  db: DB,
  tenantId: string,
  submitter: { kind: ActorKind; id: string },
  input: NewSuggestion,
  now: string,
): Promise<SuggestionRow> {
  const row: SuggestionRow = {
    id: randomUUID(),
    tenant_id: tenantId,
    submitted_by_kind: submitter.kind,
    submitted_by_id: submitter.id,
    type: input.type,
    title: input.title,
    description: input.description,
    diff: input.diff ?? null,
    file_path: input.file_path ?? null,
    metadata: input.metadata === undefined ? null : JSON.stringify(input.metadata),
    status: 'pending',
    review_notes: null,
    reviewed_at: null,
    created_at: now,
  };
  await db.insertInto('suggestions').values(row).execute();
  return row;
}

export async function listSuggestions(
  db: DB,
  tenantId: string,
  status: SuggestionStatus | undefined,
  page: { limit: number; offset: number },
) {
  let query = db.selectFrom('suggestions').where('tenant_id', '=', tenantId);
  if (status) query = query.where('status', '=', status);
  const [rows, total] = await Promise.all([
    query
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export async function findSuggestion(db: DB, id: string): Promise<SuggestionRow | undefined> {
  return db.selectFrom('suggestions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function reviewSuggestion(
  db: DB,
  id: string,
  status: SuggestionStatus,
  notes: string | null,
  now: string,
): Promise<SuggestionRow | undefined> {
  await db
    .updateTable('suggestions')
    .set({ status, review_notes: notes, reviewed_at: now })
    .where('id', '=', id)
    .execute();
  return findSuggestion(db, id);
}

/** Suggestions across tenants with the tenant's name, oldest first (the team's queue). */
export async function reviewQueue(
  db: DB,
  status: SuggestionStatus | undefined,
  page: { limit: number; offset: number },
) {
  let query = db.selectFrom('suggestions').innerJoin('tenants', 'tenants.id', 'suggestions.tenant_id');
  if (status) query = query.where('suggestions.status', '=', status);
  const [rows, total] = await Promise.all([
    query
      .selectAll('suggestions')
      .select('tenants.name as tenant_name')
      .orderBy('suggestions.created_at', 'asc')
      .orderBy('suggestions.id', 'asc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/** Suggestions of the tenant that name a finding: its id in the title, description or metadata. */
export async function suggestionsNaming(db: DB, tenantId: string, findingId: string) {
  const pattern = `%${findingId}%`;
  return db
    .selectFrom('suggestions')
    .select(['id', 'type', 'title', 'status', 'created_at'])
    .where('tenant_id', '=', tenantId)
    .where((eb) =>
      eb.or([eb('metadata', 'like', pattern), eb('title', 'like', pattern), eb('description', 'like', pattern)]),
    )
    .orderBy('created_at', 'desc')
    .limit(20)
    .execute();
}
