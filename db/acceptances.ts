import type { DB } from './database.ts';
import { uuidv7 } from './ids.ts';
import type { FindingAcceptancesTable } from './schema.ts';

export type AcceptanceRow = FindingAcceptancesTable;

/** Acceptances with their owner's e-mail address (null once the user is gone). */
const withOwner = (db: DB) =>
  db
    .selectFrom('finding_acceptances')
    .leftJoin('users', 'users.id', 'finding_acceptances.owner_id')
    .selectAll('finding_acceptances')
    .select('users.email as owner_email');

/** The acceptance that counts for a finding now: the latest one that has not ended. */
export async function currentAcceptance(db: DB, findingId: string) {
  return withOwner(db)
    .where('finding_acceptances.finding_id', '=', findingId)
    .where('finding_acceptances.ended_at', 'is', null)
    .orderBy('finding_acceptances.created_at', 'desc')
    .orderBy('finding_acceptances.id', 'desc')
    .executeTakeFirst();
}

/** Ends every acceptance of a finding still counting (revoked or replaced). */
export async function endAcceptances(db: DB, findingId: string, at: string): Promise<void> {
  await db
    .updateTable('finding_acceptances')
    .set({ ended_at: at })
    .where('finding_id', '=', findingId)
    .where('ended_at', 'is', null)
    .execute();
}

export async function insertAcceptance(
  db: DB,
  row: Omit<AcceptanceRow, 'id' | 'notice_sent_at' | 'ended_at'>,
): Promise<AcceptanceRow> {
  const stored = { id: uuidv7(), notice_sent_at: null, ended_at: null, ...row };
  await db.insertInto('finding_acceptances').values(stored).execute();
  return stored;
}

/** Acceptances still counting whose end is at or before `until`, soonest first. */
export async function acceptancesEndingBy(db: DB, until: string, options: { unnoticedOnly?: boolean } = {}) {
  let query = withOwner(db)
    .where('finding_acceptances.ended_at', 'is', null)
    .where('finding_acceptances.expires_at', '<=', until);
  if (options.unnoticedOnly) query = query.where('finding_acceptances.notice_sent_at', 'is', null);
  return query.orderBy('finding_acceptances.expires_at').limit(500).execute();
}

/** Claims the expiring notice of an acceptance; false when another sweeper (or an end) got there first. */
export async function claimNotice(db: DB, id: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('finding_acceptances')
    .set({ notice_sent_at: at })
    .where('id', '=', id)
    .where('notice_sent_at', 'is', null)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Claims the end of an acceptance; false when it had already ended. */
export async function claimEnd(db: DB, id: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('finding_acceptances')
    .set({ ended_at: at })
    .where('id', '=', id)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The tenant's acceptances still counting, soonest end first (the dashboard's register). */
export async function openAcceptancesOfTenant(db: DB, tenantId: string) {
  return db
    .selectFrom('finding_acceptances')
    .innerJoin('findings', 'findings.id', 'finding_acceptances.finding_id')
    .innerJoin('finding_texts', 'finding_texts.id', 'findings.text_id')
    .innerJoin('sites', 'sites.id', 'findings.site_id')
    .leftJoin('users', 'users.id', 'finding_acceptances.owner_id')
    .selectAll('finding_acceptances')
    .select([
      'users.email as owner_email',
      'finding_texts.title',
      'findings.severity',
      'findings.endpoint',
      'sites.name as site_name',
    ])
    .where('finding_acceptances.tenant_id', '=', tenantId)
    .where('finding_acceptances.ended_at', 'is', null)
    .orderBy('finding_acceptances.expires_at')
    .limit(500)
    .execute();
}
