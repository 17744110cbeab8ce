import type { z } from 'zod';
import type { SiteGetInput } from '../routers/sites/schemas.ts';
import { findSite } from '../db/sites.ts';
import { freshSmtpResult, latestMailOfSite, setScanMail, setSiteMailDomain, storeSmtpResult } from '../db/mail.ts';
import { assertPermission, type Actor } from '../domain/actor.ts';
import { NotFound } from '../domain/errors.ts';
import { completeSmtpPart, mailDomainOf, mailReport, type MailRun, type SmtpHostResult } from '../scanner/index.ts';
import { nowOf, type ServiceDeps } from './deps.ts';
import { smtpSettingsOf } from './scan-settings.ts';

// The mail test around the scan: which domain a site's mail is tested on, the SMTP part as a job
// after the scan (sharing MX results between tenants), and the latest result of a site.

/** What the scan takes from the stored column: undefined the registrable domain, null off, else the domain. */
export function mailDomainSetting(stored: string | null): string | null | undefined {
  return stored === null ? undefined : stored === '' ? null : stored;
}

/** The domain a site's mail is tested on, as the API shows it: null when off or when the host is a platform's. */
export function effectiveMailDomain(site: { url: string; mail_domain: string | null }): string | null {
  const setting = mailDomainSetting(site.mail_domain);
  if (setting !== undefined) return setting;
  const byDefault = mailDomainOf(new URL(site.url).hostname);
  return byDefault.notApplicable ? null : byDefault.domain;
}

/** Sets a site's mail domain (a domain, or null for off); the caller has checked permission and tenancy. */
export async function storeMailDomain(deps: ServiceDeps, tenantId: string, siteId: string, domain: string | null) {
  await setSiteMailDomain(deps.db, tenantId, siteId, domain === null ? '' : domain.toLowerCase().replace(/\.$/, ''));
}

/** The SMTP results every tenant shares, fresh for SCANNER_SMTP_CACHE_TTL. */
function smtpCache(deps: ServiceDeps) {
  return {
    fresh: async (host: string) => {
      const notBefore = new Date(nowOf(deps) - deps.config.SCANNER_SMTP_CACHE_TTL).toISOString();
      const row = await freshSmtpResult(deps.db, host, notBefore);
      return row ? (JSON.parse(row.result) as SmtpHostResult) : null;
    },
    keep: (result: SmtpHostResult) => storeSmtpResult(deps.db, result.host, JSON.stringify(result), result.testedAt),
  };
}

/** Jobs still running, so a test or a shutdown can wait for them. */
const running = new Set<Promise<void>>();

/** Resolves when every SMTP job started so far has ended. */
export async function smtpJobsSettled(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running]);
}

/**
 * The SMTP part of a stored scan's mail test, after the scan's answer: tests (or takes from the
 * cache) every MX host and writes the result into the scan. Never throws: a failure is logged and
 * the part is stored as not tested with the reason.
 */
export function startSmtpPart(deps: ServiceDeps, tenantId: string, scanId: string, run: MailRun): void {
  if (run.smtp.state !== 'pending') return;
  const job = completeSmtpPart(
    run,
    smtpSettingsOf(deps.config, () => new Date(nowOf(deps))),
    smtpCache(deps),
  )
    .catch((error: unknown) => {
      deps.log?.warn({ err: error, scan_id: scanId }, 'smtp part failed');
      return {
        ...run,
        smtp: {
          state: 'not_tested' as const,
          reason: 'fout bij het testen van de mailservers',
          hosts: [],
        },
      };
    })
    .then((done) => setScanMail(deps.db, tenantId, scanId, JSON.stringify(done)))
    .catch((error: unknown) => deps.log?.warn({ err: error, scan_id: scanId }, 'smtp result not stored'))
    .finally(() => running.delete(job));
  running.add(job);
}

/** The mail report of a stored scan's JSON. */
export const mailReportOf = (stored: string | null) =>
  mailReport(stored === null ? null : (JSON.parse(stored) as MailRun));

/** The latest mail test of a tenant's site, with the SMTP part as it stands now. */
export async function getSiteMail(deps: ServiceDeps, actor: Actor, input: z.infer<typeof SiteGetInput>) {
  assertPermission(actor, 'read_scans');
  const site = await findSite(deps.db, actor.tenantId, input.site_id);
  if (!site) throw new NotFound('Site');
  const latest = await latestMailOfSite(deps.db, actor.tenantId, site.id);
  const report = latest ? mailReportOf(latest.mail) : null;
  if (!latest || !report) throw new NotFound('Mailtest van deze site');
  return { scan_id: latest.id, scanned_at: latest.scanned_at, ...report };
}
