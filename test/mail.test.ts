import { createHash, X509Certificate } from 'node:crypto';
import https from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as admin from '../services/admin.ts';
import { scanSite } from '../scanner/index.ts';
import { smtpJobsSettled } from '../services/mail.ts';
import { completeSmtpPart, type SmtpCache } from '../scanner/mail-servers.ts';
import { probeMailDns, type MailDnsOptions } from '../scanner/probes/mail-dns.ts';
import { mailReport } from '../scanner/report/mail.ts';
import { SMTP_OFF } from '../scanner/tests/mail.ts';
import type { MailRun, SmtpHostResult } from '../scanner/types.ts';
import { seedTenant, startApi, type Tenant, type TestApi } from './support/api.ts';
import { setTenantToken } from '../db/claims.ts';
import { PROOF_PLACES } from '../scanner/probes/control-proof.ts';
import { dnsLabAvailable, freeDualPort, loopbackIpv6, startDnsLab, type DnsLab } from './support/dns-lab.ts';
import { certificate, HARDENED_TLS } from './support/fixture-sites.ts';
import { startReceiver, waitFor, type Receiver } from './support/receiver.ts';
import { startRpkiStandIn } from './support/rpki-server.ts';
import { HARDENED_HEADERS } from './support/sites.ts';
import {
  eximAvailable,
  port25Available,
  startExim,
  startSmtpFixture,
  type SmtpFixture,
} from './support/smtp-servers.ts';

// internet.nl's mail test against the offline lab of the website test: knot serving signed zones
// with MX, SPF, DMARC, DKIM, MTA-STS, TLS-RPT and TLSA records behind a validating unbound, the
// MTA-STS policies over HTTPS with the test CA, and SMTP servers on port 25 in the test run's own
// network namespace (bin/test.mjs): STARTTLS, no STARTTLS, and a 421 greeting.

const withLab = dnsLabAvailable();
if (!withLab && process.env.CI) throw new Error('knot, unbound and ldnsutils are needed (.ci/run installs them)');
const withPort25 = withLab && (await port25Available());
if (withLab && process.env.CI && !withPort25)
  throw new Error('the SMTP tests need port 25 of their own: run them through npm test as root (bin/test.mjs)');
const withExim = withPort25 && eximAvailable();
if (withPort25 && process.env.CI && !withExim) throw new Error('exim4-daemon-light is needed (.ci/run installs it)');

const L = 'lab.test';
const ZONES = [
  'perfect',
  'pnone',
  'twodmarc',
  'spf11',
  'extok',
  'extno',
  'nullmx',
  'nomx',
  'fallback',
  'sts',
  'badtlsa',
  'wrongtlsa',
  'plain',
  'busy',
  'exim',
];
const HOSTS = [...ZONES.flatMap((z) => [`mx.${z}.${L}`, `www.${z}.${L}`, `mta-sts.${z}.${L}`]), `shop.fallback.${L}`];
const cert = certificate({ hosts: HOSTS });
const spki = new X509Certificate(cert.certPem).publicKey.export({ type: 'spki', format: 'der' });
const MATCH = createHash('sha256').update(spki).digest('hex');
const txt = (owner: string, value: string) => `${owner} 300 IN TXT "${value.replace(/"/g, '\\"')}"`;
const dmarc = (value: string) => txt('_dmarc', value);
/** A fixed token for the lab's TXT records, set as the API tenants' own (each tenant's is random otherwise). */
const LAB_TOKEN = 'lab-token-0123456789abcdefghijklmnopqrstuv';
const CONTROL = txt(PROOF_PLACES.dnsLabel, `${PROOF_PLACES.txtPrefix}${LAB_TOKEN}`);
const DKIM = txt('sel._domainkey', 'v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=');
/** A domain whose mail goes to the perfect domain's MX. */
const toPerfectMx = '@ 300 IN MX 10 mx.perfect.lab.test.';
const POLICIES: Record<string, string> = {
  [`mta-sts.perfect.${L}`]: `version: STSv1\r\nmode: enforce\r\nmx: mx.perfect.${L}\r\nmax_age: 604800\r\n`,
  [`mta-sts.sts.${L}`]: 'version: STSv1\nmode: enforce\nmx: mail.elders.example\nmax_age: 86400\n',
};

let lab: DnsLab;
let port: number;
let web: https.Server;
let fixtures: SmtpFixture[] = [];

const options = () => ({
  allowPrivateTargets: true,
  dnsServers: [lab.resolver],
  dnssecProbeName: L,
  nameServerPort: lab.nameServerPort,
  httpsPort: port,
  timeoutMs: 3_000,
  signal: AbortSignal.timeout(30_000),
});
/** The DNS part of one lab domain, scored without the SMTP part. */
async function dnsReport(
  domain: string,
  smtp: MailRun['smtp']['state'] = 'not_tested',
  extra: Partial<MailDnsOptions> = {},
) {
  const evidence = await probeMailDns(domain, { ...options(), ...extra });
  const run: MailRun = {
    domain,
    status: evidence.error ? 'error' : 'tested',
    reason: evidence.error,
    evidence,
    smtp: { state: smtp, reason: smtp === 'not_tested' ? SMTP_OFF : null, hosts: [] },
  };
  return { run, report: mailReport(run)! };
}
const testOf = (report: any, category: string, name: string) =>
  report.internetnl.categories[category].tests.find((t: { name: string }) => t.name === name);

describe.runIf(withLab && loopbackIpv6())('internet.nl mail test in an offline DNS lab', () => {
  beforeAll(async () => {
    port = await freeDualPort();
    web = https.createServer({ key: cert.keyPem, cert: cert.certPem, ...HARDENED_TLS }, (req, res) => {
      const host = (req.headers.host ?? '').replace(/:\d+$/, '');
      if (req.url === '/.well-known/mta-sts.txt' && POLICIES[host])
        return res.writeHead(200, { 'content-type': 'text/plain' }).end(POLICIES[host]);
      res.writeHead(200, { ...HARDENED_HEADERS, 'content-type': 'text/html' }).end('<!doctype html><p>winkel</p>');
    });
    await new Promise<void>((resolve) => web.listen(port, '127.0.0.1', resolve));
    const mx = (a: string, aaaa?: string) => [`mx 300 IN A ${a}`, ...(aaaa ? [`mx 300 IN AAAA ${aaaa}`] : [])];
    const www = ['www 300 IN A 127.0.0.1'];
    lab = await startDnsLab(
      [
        {
          label: 'perfect',
          signed: true,
          records: [
            '@ 300 IN MX 10 mx.perfect.lab.test.',
            ...mx('127.0.0.1', '::1'),
            ...www,
            `_25._tcp.mx 300 IN TLSA 3 1 1 ${MATCH}`,
            txt('@', 'v=spf1 mx -all'),
            dmarc('v=DMARC1; p=reject; rua=mailto:dmarc@perfect.lab.test'),
            DKIM,
            txt('_mta-sts', 'v=STSv1; id=20261127'),
            'mta-sts 300 IN A 127.0.0.1',
            txt('_smtp._tls', 'v=TLSRPTv1; rua=mailto:tlsrpt@perfect.lab.test'),
            // The API tenants' proof of control: port 25 is tested only for a domain they have shown is theirs.
            CONTROL,
          ],
        },
        {
          label: 'pnone',
          signed: true,
          records: [toPerfectMx, ...www, txt('@', 'v=spf1 mx -all'), dmarc('v=DMARC1; p=none'), DKIM, CONTROL],
        },
        {
          label: 'twodmarc',
          signed: true,
          records: [
            toPerfectMx,
            txt('@', 'v=spf1 mx -all'),
            dmarc('v=DMARC1; p=reject'),
            dmarc('v=DMARC1; p=none'),
            DKIM,
          ],
        },
        {
          // Eleven look-ups, each through an a: term: internet.nl counts none of them (#1336).
          label: 'spf11',
          signed: true,
          records: [
            toPerfectMx,
            txt('@', `v=spf1 ${Array.from({ length: 11 }, (_, i) => `a:h${i + 1}.spf11.lab.test`).join(' ')} -all`),
            ...Array.from({ length: 11 }, (_, i) => `h${i + 1} 300 IN A 127.0.0.1`),
            dmarc('v=DMARC1; p=reject'),
            DKIM,
          ],
        },
        // The same external rua; only extok's report host authorises it (reports.test, below).
        ...['extok', 'extno'].map((label) => ({
          label,
          signed: true,
          records: [
            toPerfectMx,
            txt('@', 'v=spf1 mx -all'),
            dmarc('v=DMARC1; p=reject; rua=mailto:d@reports.test'),
            DKIM,
          ],
        })),
        {
          label: 'nullmx',
          signed: true,
          records: ['@ 300 IN MX 0 .', txt('@', 'v=spf1 -all'), dmarc('v=DMARC1; p=reject')],
        },
        { label: 'nomx', signed: false, records: [...www, txt('@', 'v=spf1 -all')] },
        {
          // shop.fallback.lab.test has no DMARC record: the public-suffix list sends it to lab.test's,
          // RFC 9989's tree walk stops at fallback.lab.test first.
          label: 'fallback',
          signed: true,
          records: [
            `shop 300 IN MX 10 mx.perfect.lab.test.`,
            txt('shop', 'v=spf1 mx -all'),
            dmarc('v=DMARC1; p=none'),
            DKIM.replace('sel._domainkey', 'sel._domainkey.shop'),
          ],
        },
        {
          label: 'sts',
          signed: true,
          records: [
            toPerfectMx,
            txt('_mta-sts', 'v=STSv1; id=1'),
            'mta-sts 300 IN A 127.0.0.1',
            dmarc('v=DMARC1; p=reject'),
          ],
        },
        {
          label: 'badtlsa',
          signed: true,
          records: [
            '@ 300 IN MX 10 mx.badtlsa.lab.test.',
            ...mx('127.0.0.1'),
            `_25._tcp.mx 300 IN TLSA 3 1 1 ${'12'.repeat(32)}`,
          ],
          tamper: ['12'.repeat(32), MATCH],
        },
        {
          label: 'wrongtlsa',
          signed: true,
          records: [
            '@ 300 IN MX 10 mx.wrongtlsa.lab.test.',
            ...mx('127.0.0.1', '::1'),
            `_25._tcp.mx 300 IN TLSA 3 1 1 ${'ab'.repeat(32)}`,
          ],
        },
        { label: 'plain', signed: true, records: ['@ 300 IN MX 10 mx.plain.lab.test.', ...mx('127.0.0.2')] },
        { label: 'busy', signed: true, records: ['@ 300 IN MX 10 mx.busy.lab.test.', ...mx('127.0.0.3')] },
        {
          label: 'exim',
          signed: true,
          records: ['@ 300 IN MX 10 mx.exim.lab.test.', ...mx('127.0.0.4'), `_25._tcp.mx 300 IN TLSA 3 1 1 ${MATCH}`],
        },
      ],
      // The organisational domain's DMARC record: sp= applies to its subdomains.
      [dmarc('v=DMARC1; p=reject; sp=quarantine')],
      [{ name: 'reports.test', records: [txt('extok.lab.test._report._dmarc', 'v=DMARC1')] }],
    );
    if (withPort25)
      fixtures = await Promise.all([
        startSmtpFixture('127.0.0.1', 'starttls', cert),
        startSmtpFixture('::1', 'starttls', cert),
        startSmtpFixture('127.0.0.2', 'plain', cert),
        startSmtpFixture('127.0.0.3', 'busy', cert),
        ...(withExim ? [startExim('127.0.0.4', cert)] : []),
      ]);
  }, 60_000);

  afterAll(async () => {
    await smtpJobsSettled();
    await Promise.all(fixtures.map((f) => f.close()));
    await new Promise((resolve) => web?.close(resolve));
    await lab?.close();
  });

  const connections = () => fixtures.reduce((n, f) => n + f.connections, 0);

  describe('the DNS part', () => {
    it('passes a perfect domain: MX on both families, SPF, DMARC p=reject, DKIM, DNSSEC, MTA-STS and TLS-RPT', async () => {
      const { report } = await dnsReport(`perfect.${L}`);
      expect(report).toMatchObject({
        domain: `perfect.${L}`,
        status: 'tested',
        mx_status: 'has_mx',
        mx: [{ host: `mx.perfect.${L}`, preference: 10, addresses: ['127.0.0.1', '::1'] }],
      });
      expect(report.internetnl!.categories.auth).toMatchObject({ status: 'passed', score: 100 });
      expect(report.internetnl!.categories.dnssec).toMatchObject({ status: 'passed', score: 100 });
      expect(testOf(report, 'ipv6', 'mx_aaaa')).toMatchObject({ status: 'passed' });
      expect(report.extras.mta_sts).toMatchObject({ status: 'passed' });
      expect(report.extras.tls_rpt).toMatchObject({ status: 'passed' });
      expect(report.extras.bimi).toMatchObject({ status: 'not_tested' });
      // Without the SMTP part the TLS category is not tested and not in the mail score.
      expect(report.internetnl!.categories.tls).toMatchObject({ status: 'not_tested', score: null });
      expect(testOf(report, 'tls', 'starttls_exists').detail).toBe(SMTP_OFF);
      expect(report.fixes).toEqual([]);
    });

    it('scores p=none 2 of 10 and two DMARC records as no DMARC, as internet.nl does', async () => {
      const none = (await dnsReport(`pnone.${L}`)).report;
      expect(testOf(none, 'auth', 'dmarc')).toMatchObject({ status: 'passed' });
      expect(testOf(none, 'auth', 'dmarc_policy')).toMatchObject({ status: 'failed' });
      expect(testOf(none, 'auth', 'dmarc_policy').detail).toMatch(/p=none/);
      // dmarc 10 + dmarc_policy 2 + dkim 10 + spf 10 + spf_policy 10 of 50.
      expect(none.internetnl!.categories.auth.score).toBe(84);
      expect(none.fixes).toContainEqual(
        expect.objectContaining({
          fixes: 'dmarc_policy',
          name: `_dmarc.pnone.${L}`,
          value: expect.stringMatching(/^v=DMARC1; p=reject/),
        }),
      );
      const two = (await dnsReport(`twodmarc.${L}`)).report;
      expect(testOf(two, 'auth', 'dmarc')).toMatchObject({ status: 'failed' });
      expect(testOf(two, 'auth', 'dmarc').detail).toMatch(/2 DMARC-records/);
      // The policy could not be tested and still counts: 0 of 10.
      expect(testOf(two, 'auth', 'dmarc_policy')).toMatchObject({ status: 'not_tested' });
      expect(two.internetnl!.categories.auth.score).toBe(60);
    });

    it('makes eleven a: look-ups a permerror, with the tree and internet.nl’s own count', async () => {
      const { report } = await dnsReport(`spf11.${L}`);
      expect(testOf(report, 'auth', 'spf')).toMatchObject({ status: 'passed' });
      const policy = testOf(report, 'auth', 'spf_policy');
      expect(policy.status).toBe('failed');
      expect(policy.detail).toMatch(/^permerror: 11 DNS-look-ups \(internet\.nl telt 0/);
      expect(policy.detail).toContain(`spf11.${L}: "v=spf1 a:h1.spf11.${L}`);
      // Too many look-ups scores as internet.nl's max-lookups: 2 points.
      expect(report.internetnl!.categories.auth.score).toBe(84);
    });

    it('wants an authorisation record for an external rua, as a notice without losing points', async () => {
      const ok = (await dnsReport(`extok.${L}`)).report;
      expect(testOf(ok, 'auth', 'dmarc_policy')).toMatchObject({ status: 'passed' });
      const no = (await dnsReport(`extno.${L}`)).report;
      expect(testOf(no, 'auth', 'dmarc_policy')).toMatchObject({ status: 'warning' });
      expect(testOf(no, 'auth', 'dmarc_policy').detail).toContain(`extno.${L}._report._dmarc.reports.test`);
      expect(no.internetnl!.categories.auth.score).toBe(100);
    });

    it('tells a null MX and no MX apart, and skips DKIM for a domain that sends no mail', async () => {
      const nullMx = (await dnsReport(`nullmx.${L}`)).report;
      expect(nullMx).toMatchObject({ mx_status: 'null_mx', mx: [] });
      expect(testOf(nullMx, 'auth', 'dkim')).toMatchObject({ status: 'not_tested' });
      expect(nullMx.internetnl!.categories.auth.score).toBe(100);
      expect(testOf(nullMx, 'tls', 'starttls_exists').detail).toMatch(/null-MX/);
      const noMx = (await dnsReport(`nomx.${L}`)).report;
      expect(noMx).toMatchObject({ mx_status: 'no_mx', mx: [] });
      expect(testOf(noMx, 'dnssec', 'dnssec_mx_exists').detail).toBe('geen MX-records');
    });

    it('falls back to the organisational domain’s DMARC (sp=) and says where RFC 9989’s tree walk differs', async () => {
      const { report } = await dnsReport(`shop.fallback.${L}`);
      const found = testOf(report, 'auth', 'dmarc');
      expect(found.status).toBe('passed');
      expect(found.detail).toContain(`_dmarc.${L} (organisatiedomein)`);
      expect(found.detail).toMatch(/RFC 9989.*_dmarc\.fallback\.lab\.test/);
      expect(testOf(report, 'auth', 'dmarc_policy')).toMatchObject({ status: 'passed', detail: 'sp=quarantine' });
    });

    it('errs on MTA-STS enforce with an MX no pattern covers, and wants TLS-RPT beside it', async () => {
      const { report } = await dnsReport(`sts.${L}`);
      expect(report.extras.mta_sts.status).toBe('error');
      expect(report.extras.mta_sts.detail).toContain(`mx.perfect.${L}`);
      expect(report.extras.tls_rpt.status).toBe('warning');
      expect(report.fixes.map((f) => f.name)).toContain(`_smtp._tls.sts.${L}`);
    });

    it('validates the route origins of the MX and name-server addresses when RPKI is configured', async () => {
      const rpki = await startRpkiStandIn();
      try {
        const { report } = await dnsReport(`perfect.${L}`, 'not_tested', {
          rpkiValidatorUrl: rpki.validatorUrl,
          rpkiOriginUrl: rpki.originUrl,
        });
        expect(report.internetnl!.categories.rpki).toMatchObject({ status: 'passed', score: 100 });
        expect(testOf(report, 'rpki', 'mx_valid').detail).toBe('alle route-origins zijn geldig');
        expect(rpki.asked).toContain('/api/v1/validity/AS64500/127.0.0.0/8');
      } finally {
        await rpki.close();
      }
    });

    it('tests the mail of a site whose web server does not answer', async () => {
      const result = await scanSite(`https://www.perfect.${L}:${await freeDualPort()}/`, {
        allowPrivateTargets: true,
        dnsServers: [lab.resolver],
        probeExposures: false,
        mail: { domain: `perfect.${L}`, smtp: false, dnssecProbeName: L, nameServerPort: lab.nameServerPort },
      });
      expect(result.unreachable).toBeTruthy();
      expect(mailReport(result.mail)).toMatchObject({ status: 'tested', mx_status: 'has_mx' });
      expect(result.coverage.find((c) => c.test === 'mail')).toMatchObject({
        subject: `perfect.${L}`,
        status: 'completed',
      });
    });

    it('believes no TLSA record whose signature is bogus', async () => {
      const { run } = await dnsReport(`badtlsa.${L}`);
      expect(run.evidence!.mx[0]!.tlsa).toMatchObject({ bogus: true });
    });
  });

  describe.runIf(withPort25)('the SMTP part on port 25', () => {
    const memoryCache = (): SmtpCache & { rows: Map<string, SmtpHostResult> } => {
      const rows = new Map<string, SmtpHostResult>();
      return { rows, fresh: async (host) => rows.get(host) ?? null, keep: async (r) => void rows.set(r.host, r) };
    };
    const settings = (probeHost?: string) => ({
      ...options(),
      helo: 'scanner.lab.test',
      now: () => new Date(),
      probeHost,
    });
    const smtpReport = async (domain: string, cache = memoryCache(), probeHost?: string) => {
      const { run } = await dnsReport(domain, 'pending');
      const done = await completeSmtpPart(run, settings(probeHost), cache);
      return { run: done, report: mailReport(done)! };
    };

    it('tests STARTTLS, TLS and DANE on every address of the MX, and scores the worst', async () => {
      const { report } = await smtpReport(`perfect.${L}`);
      expect(report.smtp.state).toBe('tested');
      const tls = report.internetnl!.categories.tls;
      // Both addresses of the MX were tested, each on its own connections.
      expect(testOf(report, 'tls', 'starttls_exists')).toEqual({
        name: 'starttls_exists',
        status: 'passed',
        detail: '127.0.0.1, ::1: STARTTLS',
      });
      expect(testOf(report, 'tls', 'dane_exists')).toMatchObject({ status: 'passed' });
      expect(testOf(report, 'tls', 'dane_valid')).toMatchObject({ status: 'passed' });
      expect(testOf(report, 'tls', 'tls_version')).toMatchObject({ status: 'passed' });
      expect(tls.score).toBe(100);
      expect(testOf(report, 'ipv6', 'mx_reach')).toMatchObject({ status: 'passed' });
      const scores = Object.values(report.internetnl!.categories).flatMap((c) => (c.score === null ? [] : [c.score]));
      expect(report.internetnl!.score).toBe(Math.trunc(scores.reduce((a, b) => a + b, 0) / scores.length));
    });

    it('fails a server without STARTTLS, and does not call a 421 "no STARTTLS"', async () => {
      const plain = (await smtpReport(`plain.${L}`)).report;
      expect(testOf(plain, 'tls', 'starttls_exists')).toMatchObject({ status: 'failed' });
      expect(plain.internetnl!.categories.tls.score).toBe(0);
      const busy = (await smtpReport(`busy.${L}`)).report;
      expect(testOf(busy, 'tls', 'starttls_exists')).toMatchObject({ status: 'not_tested' });
      expect(testOf(busy, 'tls', 'starttls_exists').detail).toMatch(/421/);
      expect(busy.internetnl!.categories.tls.score).toBeNull();
    });

    it.runIf(withExim)('tests exim (GnuTLS, a second TLS stack) as it tests any mail server', async () => {
      const { report } = await smtpReport(`exim.${L}`);
      expect(testOf(report, 'tls', 'starttls_exists')).toMatchObject({ status: 'passed' });
      expect(testOf(report, 'tls', 'dane_valid')).toMatchObject({ status: 'passed' });
      expect(testOf(report, 'tls', 'cert_pubkey')).toMatchObject({ status: 'passed' });
      // Debian's exim (GnuTLS defaults) still offers TLS 1.0 and 1.1: a warning with full points, the
      // mail exception; its static-RSA and CBC suites and 1024-bit DH groups cost their points.
      expect(testOf(report, 'tls', 'tls_version')).toMatchObject({ status: 'warning' });
      expect(testOf(report, 'tls', 'cipher_suites')).toMatchObject({ status: 'failed' });
      const score = report.internetnl!.categories.tls.score!;
      expect(score).toBeGreaterThan(50);
      expect(score).toBeLessThan(100);
    });

    it('judges DANE on port 25 valid or invalid, from AD-secure records only', async () => {
      const wrong = (await smtpReport(`wrongtlsa.${L}`)).report;
      expect(testOf(wrong, 'tls', 'dane_exists')).toMatchObject({ status: 'passed' });
      expect(testOf(wrong, 'tls', 'dane_valid')).toMatchObject({ status: 'failed' });
      const bogus = (await smtpReport(`badtlsa.${L}`)).report;
      expect(testOf(bogus, 'tls', 'dane_exists')).toMatchObject({ status: 'failed' });
      expect(testOf(bogus, 'tls', 'dane_valid')).toMatchObject({ status: 'not_tested' });
    });

    it('takes a fresh MX result from the cache without connecting, and keeps no untestable one', async () => {
      const cache = memoryCache();
      await smtpReport(`perfect.${L}`, cache);
      const before = connections();
      const again = await smtpReport(`pnone.${L}`, cache);
      expect(again.report.smtp.state).toBe('cached');
      expect(connections()).toBe(before);
      await smtpReport(`busy.${L}`, cache);
      expect(cache.rows.has(`mx.busy.${L}`)).toBe(false);
    });

    it('never contacts an MX address the address policy refuses: not tested, with why', async () => {
      const { run } = await dnsReport(`perfect.${L}`, 'pending');
      const before = connections();
      const done = await completeSmtpPart(run, { ...settings(), allowPrivateTargets: false }, memoryCache());
      const report = mailReport(done)!;
      expect(testOf(report, 'tls', 'starttls_exists')).toMatchObject({ status: 'not_tested' });
      expect(testOf(report, 'tls', 'starttls_exists').detail).toMatch(/loopback/);
      expect(connections()).toBe(before);
    });

    it('connects to no MX when the egress self-test fails', async () => {
      const before = fixtures.map((f) => f.connections);
      const { report } = await smtpReport(`perfect.${L}`, memoryCache(), `mx.busy.${L}`);
      expect(report.smtp).toMatchObject({ state: 'not_tested', reason: expect.stringMatching(/poort 25 werkt niet/) });
      expect(testOf(report, 'tls', 'starttls_exists')).toMatchObject({ status: 'not_tested' });
      // Only the probe host was asked.
      expect(fixtures.map((f) => f.connections)).toEqual(
        before.map((n, i) => (fixtures[i]!.behaviour === 'busy' ? n + 1 : n)),
      );
    });
  });

  describe('through the API', () => {
    let api: TestApi;
    let tenant: Tenant;
    let receiver: Receiver;

    const siteFor = async (zone: string) => {
      const site = await admin.createSite(
        { db: api.db, config: api.config },
        { tenant_id: tenant.tenantId, name: zone, url: `https://www.${zone}.${L}:${port}/` },
      );
      return site.id;
    };
    /** Shows control of a site's domain by the lab's TXT record (a DNS claim covers the names below it). */
    const verifyByDns = async (key: string, siteId: string) => {
      const verified = await api.call('POST', `/api/agent/sites/${siteId}/verify`, { key, body: { method: 'dns' } });
      expect(verified.body).toMatchObject({ status: 'verified', method: 'dns' });
    };
    const scan = async (siteId: string) => {
      const created = await api.call('POST', '/api/agent/scan', { key: tenant.key, body: { site_id: siteId } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body;
    };

    beforeAll(async () => {
      api = await startApi({
        SCANNER_DNS_SERVERS: lab.resolver,
        SCANNER_DNSSEC_PROBE_NAME: L,
        SCANNER_NAME_SERVER_PORT: String(lab.nameServerPort),
        SCANNER_WEB_HTTPS_PORT: String(port),
        SCANNER_SMTP: withPort25 ? 'true' : 'false',
        SCANNER_SMTP_HELO: 'scanner.lab.test',
      });
      tenant = await seedTenant(api.db, 'https://example.nl/', { plan: 'enterprise' });
      await setTenantToken(api.db, tenant.tenantId, LAB_TOKEN, false);
      receiver = await startReceiver();
      await api.call('POST', '/api/agent/webhooks', {
        key: tenant.key,
        body: { url: receiver.url, events: ['scan_completed'] },
      });
    }, 60_000);
    afterAll(async () => {
      await smtpJobsSettled();
      await receiver?.close();
      await api?.close();
    });

    it('sets the mail domain per site, tests it in every scan and answers the latest result', async () => {
      const siteId = await siteFor('perfect');
      await verifyByDns(tenant.key, siteId);
      // By default the registrable domain of the host (here the lab's parent).
      expect((await api.call('GET', `/api/agent/sites/${siteId}`, { key: tenant.key })).body.mail_domain).toBe(L);
      const empty = await api.call('PATCH', `/api/agent/sites/${siteId}`, { key: tenant.key, body: {} });
      expect(empty.status).toBe(400);
      expect(empty.body.error).toMatch(/scan_interval_hours, mail_domain/);
      const bad = await api.call('PATCH', `/api/agent/sites/${siteId}`, {
        key: tenant.key,
        body: { mail_domain: 'niet een domein' },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatch(/domeinnaam/);
      const set = await api.call('PATCH', `/api/agent/sites/${siteId}`, {
        key: tenant.key,
        body: { mail_domain: `Perfect.${L}.` },
      });
      expect(set.status).toBe(200);
      expect(set.body).toMatchObject({ mail_domain: `perfect.${L}`, scan_interval_hours: null });
      expect((await api.call('GET', `/api/agent/sites/${siteId}/mail`, { key: tenant.key })).status).toBe(404);

      const created = await scan(siteId);
      const detail = (await api.call('GET', `/api/agent/scans/${created.scan_id}`, { key: tenant.key })).body;
      expect(detail.mail).toMatchObject({ domain: `perfect.${L}`, status: 'tested', mx_status: 'has_mx' });
      expect(['pending', 'tested', 'not_tested']).toContain(detail.mail.smtp.state);
      // The mail test stays outside the grade.
      expect(detail.findings.map((f: { finding_type: string }) => f.finding_type)).not.toContain('mail');

      await smtpJobsSettled();
      const latest = await api.call('GET', `/api/agent/sites/${siteId}/mail`, { key: tenant.key });
      expect(latest.status).toBe(200);
      expect(latest.body).toMatchObject({ scan_id: created.scan_id, domain: `perfect.${L}` });
      expect(latest.body.smtp.state).toBe(withPort25 ? 'tested' : 'not_tested');
      expect(latest.body.internetnl.categories.auth.score).toBe(100);

      await waitFor(() => receiver.delivered().some((m) => m.json.data.scan_id === created.scan_id));
      const completed = receiver.delivered().find((m) => m.json.data.scan_id === created.scan_id)!;
      expect(completed.json.data.mail).toEqual({ score: detail.mail.internetnl.score, status: 'tested' });
    });

    it.runIf(withPort25)('shares an MX result between tenants: the next site on the same MX is cached', async () => {
      const other = await seedTenant(api.db, 'https://example.nl/', { plan: 'enterprise' });
      await setTenantToken(api.db, other.tenantId, LAB_TOKEN, false);
      const site = await admin.createSite(
        { db: api.db, config: api.config },
        { tenant_id: other.tenantId, name: 'pnone', url: `https://www.pnone.${L}:${port}/` },
      );
      await verifyByDns(other.key, site.id);
      await api.call('PATCH', `/api/agent/sites/${site.id}`, { key: other.key, body: { mail_domain: `pnone.${L}` } });
      const before = connections();
      const created = await api.call('POST', '/api/agent/scan', { key: other.key, body: { site_id: site.id } });
      expect(created.status).toBe(201);
      await smtpJobsSettled();
      const latest = await api.call('GET', `/api/agent/sites/${site.id}/mail`, { key: other.key });
      expect(latest.body.smtp.state).toBe('cached');
      expect(connections()).toBe(before);
      // Another tenant's site is as absent as a missing one.
      expect((await api.call('GET', `/api/agent/sites/${site.id}/mail`, { key: tenant.key })).status).toBe(404);
    });

    it.runIf(withPort25)('connects to port 25 only for a domain the tenant has shown control of by DNS', async () => {
      // The operator vouched for this tenant's site, which is no DNS claim on the mail domain.
      const unproven = await seedTenant(api.db, `https://www.perfect.${L}:${port}/`, { plan: 'enterprise' });
      await api.call('PATCH', `/api/agent/sites/${unproven.siteId}`, {
        key: unproven.key,
        body: { mail_domain: `perfect.${L}` },
      });
      const before = connections();
      const created = await api.call('POST', '/api/agent/scan', {
        key: unproven.key,
        body: { site_id: unproven.siteId },
      });
      expect(created.status).toBe(201);
      await smtpJobsSettled();
      const mail = (await api.call('GET', `/api/agent/scans/${created.body.scan_id}`, { key: unproven.key })).body.mail;
      expect(mail.smtp).toEqual({
        state: 'not_tested',
        reason: `eigendom van perfect.${L} niet aangetoond via DNS`,
        tested_at: null,
      });
      expect(connections()).toBe(before);
    });

    it('turns the mail test off with null, and the admin CLI sets it too', async () => {
      const siteId = await siteFor('nomx');
      const off = await api.call('PATCH', `/api/agent/sites/${siteId}`, {
        key: tenant.key,
        body: { mail_domain: null },
      });
      expect(off.body.mail_domain).toBeNull();
      const created = await scan(siteId);
      expect((await api.call('GET', `/api/agent/scans/${created.scan_id}`, { key: tenant.key })).body.mail).toBeNull();
      await admin.updateSiteSettings({ db: api.db, config: api.config }, { site_id: siteId, mail_domain: `nomx.${L}` });
      const shown = await api.call('GET', `/api/agent/sites/${siteId}`, { key: tenant.key });
      expect(shown.body.mail_domain).toBe(`nomx.${L}`);
    });
  });

  describe('without SCANNER_SMTP', () => {
    it('makes no connection to port 25 at all', async () => {
      const api = await startApi({
        SCANNER_DNS_SERVERS: lab.resolver,
        SCANNER_DNSSEC_PROBE_NAME: L,
        SCANNER_NAME_SERVER_PORT: String(lab.nameServerPort),
        SCANNER_WEB_HTTPS_PORT: String(port),
      });
      try {
        const tenant = await seedTenant(api.db, `https://www.perfect.${L}:${port}/`);
        await api.call('PATCH', `/api/agent/sites/${tenant.siteId}`, {
          key: tenant.key,
          body: { mail_domain: `perfect.${L}` },
        });
        const before = connections();
        const created = await api.call('POST', '/api/agent/scan', {
          key: tenant.key,
          body: { site_id: tenant.siteId },
        });
        await smtpJobsSettled();
        const mail = (await api.call('GET', `/api/agent/scans/${created.body.scan_id}`, { key: tenant.key })).body.mail;
        expect(mail.smtp).toEqual({ state: 'not_tested', reason: SMTP_OFF, tested_at: null });
        expect(testOf(mail, 'ipv6', 'mx_reach')).toMatchObject({ status: 'not_tested' });
        expect(connections()).toBe(before);
      } finally {
        await api.close();
      }
    });
  });
});
