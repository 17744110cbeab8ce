import { dnsClaimCovers } from '../checks/proof-of-control.ts';
import { mailDomainOf } from '../net/registrable-domain.ts';
import { probeMailDns } from '../probes/mail-dns.ts';
import type { MailRun } from '../types.ts';
import { defineTest } from './test.ts';

/** Why the SMTP part does not run, when SCANNER_SMTP is off. */
export const SMTP_OFF = 'SCANNER_SMTP staat uit: er wordt geen verbinding met poort 25 gemaakt';

/**
 * internet.nl's mail test on the site's mail domain: its DNS part runs in every scan (MX, SPF, DMARC,
 * DKIM, DNSSEC, IPv6, RPKI, MTA-STS, TLS-RPT, BIMI); the SMTP part is a job after the scan
 * (SCANNER_SMTP). It reports no findings: the report scores it apart from our grade.
 */
export const mailTest = defineTest({
  name: 'mail',
  category: 'SSL_TLS',
  subject: 'domain',
  reach: 'passive',
  // A site whose web server is down still has its mail tested.
  withoutSite: true,
  produces: [],
  checks: {},
  subjectOf: (site) => mailDomainOf(site.target.hostname).domain,
  gate: ({ options }) =>
    !options.mail
      ? { status: 'skipped', reason: 'niet ingesteld' }
      : options.mail.domain === null
        ? { status: 'skipped', reason: 'de mailtest staat uit voor deze site' }
        : null,
  probe: async ({ site, options }) => {
    const settings = options.mail!;
    const chosen = settings.domain;
    const { domain, notApplicable } = chosen
      ? { domain: chosen, notApplicable: null }
      : mailDomainOf(site.target.hostname);
    const smtpOff = { state: 'not_tested' as const, hosts: [] };
    if (notApplicable)
      return {
        mail: {
          domain,
          status: 'not_applicable',
          reason: notApplicable,
          evidence: null,
          smtp: { ...smtpOff, reason: notApplicable },
        },
      };
    const evidence = await probeMailDns(domain, {
      ...options,
      dnssecProbeName: settings.dnssecProbeName,
      nameServerPort: settings.nameServerPort,
      httpsPort: settings.httpsPort,
      rpkiValidatorUrl: settings.rpkiValidatorUrl,
      rpkiOriginUrl: settings.rpkiOriginUrl,
      timeoutMs: Math.min(3_000, options.requestTimeoutMs),
    });
    const smtp: MailRun['smtp'] =
      evidence.error || evidence.mxStatus !== 'has_mx'
        ? { ...smtpOff, reason: evidence.error ? 'de DNS-test mislukte' : 'geen mailservers om te testen' }
        : !settings.smtp
          ? { ...smtpOff, reason: SMTP_OFF }
          : // Port 25 is no visitor's business: only a DNS claim on the mail domain opens it.
            dnsClaimCovers(options.control, domain)
            ? { state: 'pending', reason: 'de mailservers worden na de scan getest', hosts: [] }
            : { ...smtpOff, reason: `eigendom van ${domain} niet aangetoond via DNS` };
    const mail: MailRun = {
      domain,
      status: evidence.error ? 'error' : 'tested',
      reason: evidence.error,
      evidence,
      smtp,
    };
    return { mail };
  },
  coverage: (ctx, _tools, subject) => {
    const mail = ctx.evidence.mail;
    if (!mail) return [{ subject, status: 'failed', reason: 'geen mailgegevens' }];
    const status =
      mail.status === 'tested' ? 'completed' : mail.status === 'not_applicable' ? 'not_applicable' : 'failed';
    return [{ subject: mail.domain, status, reason: mail.reason }];
  },
});
