import { createHash, X509Certificate } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as admin from '../services/admin.ts';
import { scanSite } from '../scanner/index.ts';
import { probeInternetNl } from '../scanner/probes/internetnl.ts';
import type { InternetNlSettings } from '../scanner/probes/retriever.ts';
import { internetNlReport } from '../scanner/report/internetnl.ts';
import { startDnsServer } from './support/dns-server.ts';
import { startRpkiStandIn } from './support/rpki-server.ts';
import { seedTenant, startApi, type Tenant, type TestApi } from './support/api.ts';
import { dnsLabAvailable, freeDualPort, loopbackIpv6, startDnsLab, type DnsLab } from './support/dns-lab.ts';
import { certificate, HARDENED_TLS } from './support/fixture-sites.ts';
import { HARDENED_HEADERS } from './support/sites.ts';

// internet.nl's website test against an offline lab: knot serving signed, unsigned and tampered
// zones, a validating unbound in front of it, and HTTPS servers on 127.0.0.1 and ::1.

const withLab = dnsLabAvailable();
// In CI a missing lab (or a missing ::1) fails instead of skipping.
if (!withLab && process.env.CI) throw new Error('knot, unbound and ldnsutils are needed (.ci/run installs them)');
if (withLab && process.env.CI && !loopbackIpv6()) throw new Error('the IPv6 tests need ::1 on the loopback interface');

const HOSTS = [
  'www.secure.lab.test',
  'v4only.secure.lab.test',
  'split.secure.lab.test',
  'ports.secure.lab.test',
  'status.secure.lab.test',
  'shop.secure.lab.test',
  'badtlsa.secure.lab.test',
  'www.insecure.lab.test',
  'www.bogus.lab.test',
  'www.expired.lab.test',
  'pkix.secure.lab.test',
  'www.badsig.lab.test',
  'www.single.lab.test',
  'www.v4ns.lab.test',
];
const page = (text: string) => `<!doctype html><html><body>${text.repeat(40)}</body></html>`;

let lab: DnsLab;
let api: TestApi;
let tenant: Tenant;
let port: number;
const servers: https.Server[] = [];

const cert = certificate({ hosts: HOSTS });
type Reply = { status: number; body: string; headers?: Record<string, string> };
/** A page, a reply, or a reply per Host header. */
type Answer = string | Reply | ((host: string) => Reply);
/** One HTTPS server per address family on `on`; `v6` null: nothing listens on ::1; `v6Tls` the ::1 server's own TLS. */
async function serve(v4: Answer, v6: Answer | null, on = port, tls = true, v6Tls: https.ServerOptions = {}) {
  const start = (host: string, answer: Answer, own: https.ServerOptions = {}) =>
    new Promise<void>((resolve, reject) => {
      const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
        const reply: Reply =
          typeof answer === 'string'
            ? { status: 200, body: answer }
            : typeof answer === 'function'
              ? answer(req.headers.host ?? '')
              : answer;
        res.writeHead(reply.status, { ...HARDENED_HEADERS, ...reply.headers }).end(reply.body);
      };
      const server = tls
        ? https.createServer({ key: cert.keyPem, cert: cert.certPem, ...HARDENED_TLS, ...own }, handler)
        : http.createServer(handler);
      server.once('error', reject);
      server.listen(on, host, () => resolve());
      servers.push(server as https.Server);
    });
  await start('127.0.0.1', v4);
  if (v6 !== null) await start('::1', v6, v6Tls);
  return cert;
}

async function scanOf(host: string) {
  const site = await admin.createSite(
    { db: api.db, config: api.config },
    { tenant_id: tenant.tenantId, name: host, url: `https://${host}:${port}/` },
  );
  const created = await api.call('POST', '/api/agent/scan', { key: tenant.key, body: { site_id: site.id } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return (await api.call('GET', `/api/agent/scans/${created.body.scan_id}`, { key: tenant.key })).body;
}
const testOf = (report: any, category: string, name: string) =>
  report.categories[category].tests.find((t: { name: string }) => t.name === name);

describe.runIf(withLab && loopbackIpv6())('internet.nl website test in an offline DNS lab', () => {
  beforeAll(async () => {
    port = await freeDualPort();
    // One certificate for every host; the same server answers all names on this port.
    await serve(page('dezelfde pagina '), page('dezelfde pagina '));
    const spki = new X509Certificate(cert.certPem).publicKey.export({ type: 'spki', format: 'der' });
    const match = createHash('sha256').update(spki).digest('hex');
    const both = (name: string) => [`${name} 300 IN A 127.0.0.1`, `${name} 300 IN AAAA ::1`];
    lab = await startDnsLab([
      {
        label: 'secure',
        signed: true,
        records: [
          ...both('www'),
          ...both('v4only'),
          ...both('split'),
          ...both('ports'),
          ...both('status'),
          // An apex-like name with IPv4 only that redirects to www.
          'shop 300 IN A 127.0.0.1',
          ...both('badtlsa'),
          `_${port}._tcp.www 300 IN TLSA 3 1 1 ${match}`,
          `_${port}._tcp.badtlsa 300 IN TLSA 3 1 1 ${'ab'.repeat(32)}`,
          ...both('pkix'),
          // Usage 1 needs a chain that validates too: the tests trust the lab's CA (NODE_EXTRA_CA_CERTS).
          `_${port}._tcp.pkix 300 IN TLSA 1 1 1 ${match}`,
        ],
      },
      { label: 'insecure', signed: false, records: [...both('www'), `_${port}._tcp.www 300 IN TLSA 3 1 1 ${match}`] },
      { label: 'bogus', signed: true, records: both('www'), tamper: ['2026112601', '2026112602'] },
      { label: 'expired', signed: true, records: both('www'), expired: true },
      { label: 'single', signed: true, records: both('www'), nameServers: ['ns1'] },
      { label: 'wrongds', signed: true, records: both('www'), wrongDs: true },
      { label: 'optout', signed: true, records: both('www'), nsec3OptOut: true },
      { label: 'gone', signed: false, records: both('www'), unserved: true },
      { label: 'v4ns', signed: true, records: both('www'), nameServers: ['ns1', 'ns3'] },
      // The TLSA record changed after signing: its signature is bogus, the rest of the zone is not.
      {
        label: 'badsig',
        signed: true,
        records: [...both('www'), `_${port}._tcp.www 300 IN TLSA 3 1 1 ${'12'.repeat(32)}`],
        tamper: ['12'.repeat(32), '34'.repeat(32)],
      },
    ]);
    api = await startApi({
      SCANNER_DNS_SERVERS: lab.resolver,
      SCANNER_DNSSEC_PROBE_NAME: 'lab.test',
      SCANNER_NAME_SERVER_PORT: String(lab.nameServerPort),
      // Port 443 of a lab host is the port its URL names (https://www.secure.lab.test:<port>/), as for
      // any site URL with a port; nothing listens on "80": HTTPS-only sites.
      SCANNER_WEB_HTTP_PORT: String(await freeDualPort()),
    });
    tenant = await seedTenant(api.db, 'https://example.nl/', { plan: 'enterprise' });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    await api?.close();
    await lab?.close();
  });

  it('judges a signed, reachable site with matching DANE as internet.nl does', async () => {
    const scan = await scanOf('www.secure.lab.test');
    const report = scan.internetnl;
    expect(report.categories.dnssec).toMatchObject({ status: 'passed', score: 100 });
    expect(report.categories.ipv6).toMatchObject({ status: 'passed', score: 100 });
    expect(testOf(report, 'ipv6', 'ns_aaaa')).toMatchObject({ status: 'passed' });
    expect(testOf(report, 'tls', 'dane_valid')).toMatchObject({ status: 'passed' });
    expect(report.categories.rpki).toMatchObject({ status: 'not_tested', score: null });
    expect(testOf(report, 'rpki', 'rpki').detail).toMatch(/SCANNER_RPKI_VALIDATOR_URL/);
    const tested = ['ipv6', 'dnssec', 'tls'].map((c) => report.categories[c].score as number);
    // internet.nl truncates (checks/probes.py: int(...)).
    expect(report.score).toBe(Math.trunc(tested.reduce((a, b) => a + b, 0) / 3));
    expect(scan.findings.map((f: { finding_type: string }) => f.finding_type)).not.toContain('tls_dane_invalid');
  });

  it('tells insecure from bogus, with the resolver’s extended DNS error', async () => {
    const insecure = (await scanOf('www.insecure.lab.test')).internetnl;
    expect(insecure.categories.dnssec).toMatchObject({ status: 'failed', score: 20 });
    expect(testOf(insecure, 'dnssec', 'dnssec_exists')).toMatchObject({ status: 'failed' });
    // A TLSA record in an unsigned zone is not believed: information, as internet.nl's none.
    expect(testOf(insecure, 'tls', 'dane_exists')).toMatchObject({ status: 'warning' });
    expect(testOf(insecure, 'tls', 'dane_valid')).toBeUndefined();
    const bogus = (await scanOf('www.bogus.lab.test')).internetnl;
    expect(bogus.categories.dnssec).toMatchObject({ status: 'failed', score: 0 });
    expect(testOf(bogus, 'dnssec', 'dnssec_valid').detail).toMatch(/bogus.*EDE 6/);
  });

  it('scans a zone whose signatures expired in full, with DNSSEC bogus: its addresses are looked up again with CD', async () => {
    const scan = await scanOf('www.expired.lab.test');
    expect(scan.unreachable).toBeFalsy();
    const report = scan.internetnl;
    expect(report.categories.dnssec).toMatchObject({ status: 'failed', score: 0 });
    expect(testOf(report, 'dnssec', 'dnssec_valid')).toMatchObject({ status: 'failed' });
    expect(testOf(report, 'dnssec', 'dnssec_valid').detail).toMatch(/bogus/);
    // The rest of the website test ran against the addresses found.
    expect(report.categories.ipv6).toMatchObject({ status: 'passed', score: 100 });
    expect(report.categories.tls.score).toBeGreaterThan(0);
  });

  /** A scan whose port 443 (and 80) are these lab ports: each case gets servers of its own. */
  const labScan = async (host: string, https443: number, settings: Partial<InternetNlSettings> = {}) =>
    scanSite(`https://${host}:${https443}/`, {
      allowPrivateTargets: true,
      dnsServers: [lab.resolver],
      probeExposures: false,
      internetnl: {
        dnssecProbeName: 'lab.test',
        nameServerPort: lab.nameServerPort,
        webPorts: { https: https443, http: await freeDualPort() },
        ...settings,
      },
    });
  const scanAt = async (host: string, https443: number, http80?: number) =>
    (await labScan(host, https443, http80 ? { webPorts: { https: https443, http: http80 } } : {})).internetnl!;

  it('finds a web server that does not answer over IPv6', async () => {
    // Nothing listens on ::1 at this port: the AAAA record points nowhere.
    const own = await freeDualPort();
    await serve(page('dezelfde pagina '), null, own);
    const report = await scanAt('v4only.secure.lab.test', own);
    expect(testOf(report, 'ipv6', 'web_aaaa')).toMatchObject({ status: 'passed' });
    expect(testOf(report, 'ipv6', 'web_reach')).toMatchObject({ status: 'failed' });
    // ns_reach 10 of 22 -> 45: no IPv6 address answers (0), nothing compared (0).
    expect(report.categories.ipv6).toMatchObject({ status: 'failed', score: 45 });
  });

  it('finds a site that serves another page over IPv6', async () => {
    const own = await freeDualPort();
    await serve(page('de pagina via IPv4 '), page('iets heel anders, via zes: 0123456789 '), own);
    const report = await scanAt('split.secure.lab.test', own);
    // internet.nl calls pages more than 10% apart a notice, with 0 of the subtest's 2 points: 20 of 22 -> 90.
    expect(testOf(report, 'ipv6', 'web_ipv46')).toMatchObject({ status: 'warning' });
    expect(report.categories.ipv6).toMatchObject({ status: 'passed', score: 90 });
  });

  it('scores an HTTPS-only site in full, and a port 80 that answers over IPv4 only as internet.nl does', async () => {
    const own = await freeDualPort();
    await serve(page('dezelfde pagina '), page('dezelfde pagina '), own);
    expect((await scanAt('ports.secure.lab.test', own)).categories.ipv6).toMatchObject({
      status: 'passed',
      score: 100,
    });
    const http80 = await freeDualPort();
    await serve(page('dezelfde pagina '), null, http80, false);
    const report = await scanAt('ports.secure.lab.test', own, http80);
    // web_reach keeps its verdict with 2 points; web_ipv46 fails with 0: 12 of 22 -> 54.
    expect(testOf(report, 'ipv6', 'web_reach')).toMatchObject({ status: 'passed' });
    expect(testOf(report, 'ipv6', 'web_ipv46')).toMatchObject({ status: 'failed' });
    expect(report.categories.ipv6).toMatchObject({ status: 'failed', score: 54 });
  });

  it('tests the name that was entered, not the www it redirects to', async () => {
    const own = await freeDualPort();
    const body = page('dezelfde pagina ');
    const redirect = (host: string): Reply =>
      host.startsWith('shop.')
        ? { status: 301, body: '', headers: { location: `https://www.secure.lab.test:${own}/` } }
        : { status: 200, body };
    await serve(redirect, redirect, own);
    const report = await scanAt('shop.secure.lab.test', own);
    // shop has no AAAA: web_aaaa fails and only ns_reach scores, 10 of 22 -> 45, as internet.nl gives the apex.
    expect(testOf(report, 'ipv6', 'web_aaaa')).toMatchObject({ status: 'failed' });
    expect(report.categories.ipv6).toMatchObject({ status: 'failed', score: 45 });
    expect(report.categories.dnssec).toMatchObject({ status: 'passed', score: 100 });
  });

  it('judges the TLS of every address and keeps the worst, as internet.nl does', async () => {
    const own = await freeDualPort();
    const body = page('dezelfde pagina ');
    // IPv4 as hardened as the others; IPv6 also speaks TLS 1.0, which the NCSC guideline calls insufficient.
    await serve(body, body, own, true, {
      minVersion: 'TLSv1',
      ciphers: `${HARDENED_TLS.ciphers}:ECDHE-RSA-AES128-SHA:@SECLEVEL=0`,
    });
    const scan = await labScan('ports.secure.lab.test', own);
    // The scan's own connection reached 127.0.0.1: its findings know nothing of TLS 1.0 on ::1.
    expect(scan.findings.map((f) => f.finding_type)).not.toContain('tls_1_0_supported');
    expect(testOf(scan.internetnl, 'tls', 'tls_version')).toMatchObject({ status: 'failed' });
    expect(scan.internetnl!.categories.tls.status).toBe('failed');
  });

  it('fails https_forced when one address serves http without redirecting, as internet.nl judges each address', async () => {
    const own = await freeDualPort();
    const body = page('dezelfde pagina ');
    await serve(body, body, own);
    const http80 = await freeDualPort();
    const toHttps = { status: 301, body: '', headers: { location: `https://ports.secure.lab.test:${own}/` } };
    await serve(toHttps, { status: 200, body }, http80, false);
    const report = (await labScan('ports.secure.lab.test', own, { webPorts: { https: own, http: http80 } }))
      .internetnl!;
    expect(testOf(report, 'tls', 'https_forced')).toMatchObject({
      status: 'failed',
      detail: expect.stringMatching(/::1: de eerste doorverwijzing/),
    });
    expect(report.categories.tls.status).toBe('failed');
  });

  it('shows another status per family as failed, with the 2 points internet.nl still gives', async () => {
    const own = await freeDualPort();
    const body = page('dezelfde pagina ');
    await serve(body, { status: 503, body }, own);
    const report = await scanAt('status.secure.lab.test', own);
    expect(testOf(report, 'ipv6', 'web_ipv46')).toMatchObject({ status: 'failed' });
    expect(report.categories.ipv6).toMatchObject({ status: 'failed', score: 100 });
  });

  it('calls a zone under a DS of another key bogus, an NSEC3 opt-out zone secure, and a SERVFAIL on the SOA an error', async () => {
    const probe = (host: string) =>
      probeInternetNl(
        host,
        {
          allowPrivateTargets: true,
          dnsServers: [lab.resolver],
          scheme: 'https',
          port,
          chain: [],
          chainTrusted: false,
          dnssecProbeName: 'lab.test',
          nameServerPort: lab.nameServerPort,
          timeoutMs: 1_500,
          signal: new AbortController().signal,
        },
        async () => null,
      );
    expect((await probe('www.wrongds.lab.test')).dnssec.state).toBe('bogus');
    expect((await probe('www.optout.lab.test')).dnssec.state).toBe('secure');
    const gone = await probe('www.gone.lab.test');
    expect(gone.dnssec.state).toBe('error');
    // internet.nl's dnserror: 0 points, dnssec_exists failed, dnssec_valid not tested.
    const report = internetNlReport(gone, new Set(), { hstsMaxAge: null, zeroRtt: null, addresses: [] })!;
    expect(report.categories.dnssec).toMatchObject({ status: 'failed', score: 0 });
    expect(testOf(report, 'dnssec', 'dnssec_exists')).toMatchObject({ status: 'failed' });
  });

  it('scores one name server at most 5, and an IPv4-only one as 0 while fewer than two have IPv6', async () => {
    const single = (await scanOf('www.single.lab.test')).internetnl;
    expect(testOf(single, 'ipv6', 'ns_aaaa')).toMatchObject({ status: 'failed' });
    // ns_reach min(5, 10) + web_reach 10 + web_ipv46 2 = 17 of 22 -> 77.
    expect(single.categories.ipv6).toMatchObject({ status: 'failed', score: 77 });
    const v4ns = (await scanOf('www.v4ns.lab.test')).internetnl;
    expect(testOf(v4ns, 'ipv6', 'ns_aaaa')).toMatchObject({ status: 'failed' });
    // ns1 10, ns3 0 (no AAAA, counted while fewer than two have one): (10 + 0) / 2 = 5 -> 17 of 22 -> 77.
    expect(v4ns.categories.ipv6).toMatchObject({ status: 'failed', score: 77 });
    expect(testOf(v4ns, 'ipv6', 'ns_reach')).toMatchObject({ status: 'passed' });
  });

  it('judges TLSA usage 1 on a chain that validates, and shows a bogus TLSA set as bogus', async () => {
    // On a chain that does not validate the same record fails (internetnl-scoring.test.ts, daneMatches).
    const pkix = await scanOf('pkix.secure.lab.test');
    expect(testOf(pkix.internetnl, 'tls', 'dane_exists')).toMatchObject({ status: 'passed' });
    expect(testOf(pkix.internetnl, 'tls', 'dane_valid')).toMatchObject({ status: 'passed' });
    const bogus = (await scanOf('www.badsig.lab.test')).internetnl;
    expect(testOf(bogus, 'tls', 'dane_exists')).toMatchObject({
      status: 'warning',
      detail: expect.stringMatching(/bogus/),
    });
    expect(bogus.categories.dnssec).toMatchObject({ status: 'passed', score: 100 });
  });

  it('reports signed TLSA records that match nothing as a HIGH finding', async () => {
    const scan = await scanOf('badtlsa.secure.lab.test');
    expect(testOf(scan.internetnl, 'tls', 'dane_valid')).toMatchObject({ status: 'warning' });
    const finding = scan.findings.find((f: { finding_type: string }) => f.finding_type === 'tls_dane_invalid');
    expect(finding).toMatchObject({ severity: 'HIGH', category: 'SSL_TLS' });
  });

  it('validates route origins through a Routinator-compatible validator when one is configured', async () => {
    const rpki = await startRpkiStandIn();
    const scanWith = () =>
      labScan('www.secure.lab.test', port, { rpkiValidatorUrl: rpki.validatorUrl, rpkiOriginUrl: rpki.originUrl });
    try {
      const valid = (await scanWith()).internetnl!;
      expect(valid.categories.rpki).toMatchObject({ status: 'passed', score: 100 });
      expect(testOf(valid, 'rpki', 'web_valid')).toMatchObject({ status: 'passed' });
      expect(rpki.asked).toContain('/api/v1/validity/AS64500/127.0.0.0/8');
      rpki.setVerdict('invalid');
      const invalid = (await scanWith()).internetnl!;
      expect(invalid.categories.rpki.status).toBe('failed');
      expect(testOf(invalid, 'rpki', 'web_valid').detail).toMatch(/127\.0\.0\.1 \(127\.0\.0\.0\/8, AS64500: invalid\)/);
    } finally {
      await rpki.close();
    }
  });

  it('does not call a site insecure when the resolver does not validate', async () => {
    const result = await labScan('www.insecure.lab.test', port, { dnssecProbeName: 'insecure.lab.test' });
    expect(result.internetnl!.categories.dnssec).toMatchObject({ status: 'not_tested', score: null });
    expect(testOf(result.internetnl, 'dnssec', 'dnssec_valid').detail).toBe('de resolver valideert niet');
  });
});

describe("internet.nl's DNSSEC verdict on answers a validating resolver gives", () => {
  const probe = async (host: string, server: string) =>
    probeInternetNl(
      host,
      {
        allowPrivateTargets: true,
        dnsServers: [server],
        scheme: 'https',
        port: 443,
        chain: [],
        chainTrusted: false,
        dnssecProbeName: 'signed.test',
        timeoutMs: 1_000,
        signal: new AbortController().signal,
      },
      async () => null,
    );

  it('calls a NOERROR answer with a bogus extended error bogus, and a name that does not exist an error', async () => {
    const server = await startDnsServer({
      'expired.test': { ede: { SOA: 7 } },
      'lame.test': { ede: { SOA: 22 } },
    });
    try {
      const expired = await probe('expired.test', server.address);
      expect(expired.dnssec).toMatchObject({ state: 'bogus', extendedError: { code: 7 } });
      // EDE 22 (No Reachable Authority) says nothing about signatures.
      expect((await probe('lame.test', server.address)).dnssec.state).not.toBe('bogus');
      expect((await probe('missing.test', server.address)).dnssec).toMatchObject({
        state: 'error',
        reason: 'DNS-antwoord NXDOMAIN',
      });
    } finally {
      await server.close();
    }
  });
});
