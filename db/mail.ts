import type { DB } from './database.ts';

// The mail test's storage: a site's chosen domain, the SMTP part written into a scan after it was
// stored, and the SMTP results per MX host that every tenant shares (they are facts about a public
// mail server, not about a tenant).

/** Sets the mail domain of a tenant's site: a domain, null for the registrable domain, '' for off. */
export async function setSiteMailDomain(db: DB, tenantId: string, siteId: string, value: string | null) {
  await db
    .updateTable('sites')
    .set({ mail_domain: value })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', siteId)
    .execute();
}

/** Writes a scan's mail JSON (the SMTP part arrived); scoped to the scan's tenant. */
export async function setScanMail(db: DB, tenantId: string, scanId: string, mail: string) {
  await db.updateTable('scans').set({ mail }).where('tenant_id', '=', tenantId).where('id', '=', scanId).execute();
}

/** The site's newest scan that has a mail test, with its mail JSON; undefined without one. */
export async function latestMailOfSite(db: DB, tenantId: string, siteId: string) {
  return db
    .selectFrom('scans')
    .select(['id', 'scanned_at', 'mail'])
    .where('tenant_id', '=', tenantId)
    .where('site_id', '=', siteId)
    .where('mail', 'is not', null)
    .orderBy('scanned_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** One MX host's stored SMTP result when tested at or after `notBefore`. */
export async function freshSmtpResult(db: DB, host: string, notBefore: string) {
  return db
    .selectFrom('smtp_results')
    .select(['result', 'tested_at'])
    .where('host', '=', host)
    .where('tested_at', '>=', notBefore)
    .executeTakeFirst();
}

export async function storeSmtpResult(db: DB, host: string, result: string, testedAt: string) {
  await db
    .insertInto('smtp_results')
    .values({ host, result, tested_at: testedAt })
    .onConflict((oc) => oc.column('host').doUpdateSet({ result, tested_at: testedAt }))
    .execute();
}
