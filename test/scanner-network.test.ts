import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { SCAN_DEFAULTS, scanSite, TargetRefusedError, TEST_NAMES, type ScanResult } from '../scanner/index.ts';
import { startSite, type FixtureSite } from './support/fixture-sites.ts';
import { hardenedSite, httpsSite, leakyWordPressSite, singlePageAppSite, softNotFoundSite } from './support/sites.ts';

const DAY = 86_400_000;
const scan = (site: FixtureSite, extra = {}) => scanSite(site.url, { allowPrivateTargets: true, ...extra });
const types = (result: ScanResult) => result.findings.map((f) => f.finding_type);
const sites: FixtureSite[] = [];
const keep = async (site: Promise<FixtureSite>) => {
  const started = await site;
  sites.push(started);
  return started;
};
afterAll(async () => Promise.all(sites.map((s) => s.close())));

describe('scanSite against loopback fixture sites', () => {
  it('grades a hardened HTTPS site with a trusted certificate uitstekend', async () => {
    const result = await scan(await keep(hardenedSite()));
    expect(result.grade).toBe('uitstekend');
    expect(result.score).toBeGreaterThanOrEqual(90);
    expect(result.findings.filter((f) => f.severity !== 'LOW')).toEqual([]);
    expect(result.scanned_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(result.requests_made).toBeGreaterThan(35);
  });

  it('grades a plain-HTTP WordPress site leaking .git and .env kritiek, confirming each leak by content', async () => {
    const result = await scan(await keep(leakyWordPressSite()));
    expect(['zwak', 'kritiek']).toContain(result.grade);
    expect(result.detected_platform).toBe('wordpress');
    const found = types(result);
    for (const type of [
      'https_unavailable',
      'exposed_git_config',
      'exposed_git_head',
      'exposed_env_file',
      'exposed_config_backup',
      'exposed_private_key',
      'exposed_backup_archive',
      'wordpress_user_enumeration',
      'wordpress_xmlrpc_enabled',
      'exposed_debug_log',
      'directory_listing',
      'session_cookie_missing_secure',
      'server_version_disclosure',
      'x_powered_by_disclosure',
      'external_script_insecure',
    ]) {
      expect(found, type).toContain(type);
    }
    const git = result.findings.find((f) => f.finding_type === 'exposed_git_config')!;
    expect(git).toMatchObject({ category: 'EXPOSED_ENDPOINT', severity: 'CRITICAL' });
    expect(git.endpoint).toMatch(/\/\.git\/config$/);
    expect(result.findings.find((f) => f.finding_type === 'https_unavailable')).toMatchObject({
      category: 'SSL_TLS',
      severity: 'CRITICAL',
    });
  });

  it('keeps connections alive across its requests, as a browser would', async () => {
    const site = await keep(leakyWordPressSite());
    const result = await scan(site);
    expect(result.requests_made).toBeGreaterThan(60);
    // At most one connection per concurrent request, not one per request.
    expect(site.connections).toBeLessThanOrEqual(SCAN_DEFAULTS.concurrency);
  });

  it('reports no exposures on a soft-404 site that answers 200 for every path', async () => {
    const result = await scan(await keep(softNotFoundSite()));
    expect(result.findings.filter((f) => f.category === 'EXPOSED_ENDPOINT')).toEqual([]);
    expect(result.endpoints_score).toBe(100);
  });

  it('reports no exposures on a single-page app that serves its shell for every path', async () => {
    const result = await scan(await keep(singlePageAppSite()));
    expect(result.findings.filter((f) => f.category === 'EXPOSED_ENDPOINT')).toEqual([]);
  });

  it.each([
    ['self-signed', { selfSigned: true }, 'tls_certificate_self_signed'],
    [
      'expired',
      { notBefore: new Date(Date.now() - 90 * DAY), notAfter: new Date(Date.now() - DAY) },
      'tls_certificate_expired',
    ],
    ['wrong-host', { hosts: ['elders.example'] }, 'tls_certificate_hostname_mismatch'],
    ['expiring', { notAfter: new Date(Date.now() + 7 * DAY) }, 'tls_certificate_expires_within_14_days'],
  ])('flags a %s certificate', async (_name, options, expected) => {
    const result = await scan(await keep(httpsSite(options)));
    expect(types(result)).toContain(expected);
    if (expected !== 'tls_certificate_expires_within_14_days') expect(['zwak', 'kritiek']).toContain(result.grade);
    expect(types(result)).not.toContain('tls_certificate_untrusted');
  });

  it('trusts the test CA through NODE_EXTRA_CA_CERTS (no certificate findings for a CA-issued certificate)', async () => {
    const result = await scan(await keep(httpsSite({})));
    // A 2048-bit key is only Uit te faseren (LOW); nothing about trust.
    expect(
      result.findings.filter((f) => f.finding_type.startsWith('tls_certificate')).map((f) => f.finding_type),
    ).toEqual(['tls_certificate_key_phase_out']);
  });

  it('still scans a server that only speaks TLS 1.0, reporting the legacy protocol', async () => {
    const result = await scan(await keep(httpsSite({}, 'legacy')));
    expect(types(result)).toEqual(expect.arrayContaining(['tls_1_0_supported', 'tls_modern_protocols_missing']));
    expect(types(result)).not.toContain('https_unavailable');
  });

  it('does not report TLS 1.0/1.1 for a modern server', async () => {
    const result = await scan(await keep(hardenedSite()));
    expect(types(result)).not.toContain('tls_1_0_supported');
    expect(types(result)).not.toContain('tls_1_1_supported');
  });

  it('finds exposed source maps of the page scripts and public GraphQL introspection', async () => {
    const site = await keep(
      startSite({
        routes: {
          '/': {
            headers: { 'content-type': 'text/html' },
            body: '<html><script src="/static/main.js"></script></html>',
          },
          '/static/main.js.map': {
            headers: { 'content-type': 'application/json' },
            body: '{"version":3,"sources":["a.ts"],"mappings":"AAAA"}',
          },
          '/graphql': (req) =>
            req.method === 'POST'
              ? {
                  headers: { 'content-type': 'application/json' },
                  body: '{"data":{"__schema":{"queryType":{"name":"Query"}}}}',
                }
              : { status: 405 },
        },
      }),
    );
    const result = await scan(site);
    expect(types(result)).toEqual(expect.arrayContaining(['exposed_source_map', 'graphql_introspection_enabled']));
    // The GET came first; the POST only because this endpoint refused it.
    expect(site.requests.filter((r) => r.endsWith(' /graphql'))).toEqual(['GET /graphql', 'POST /graphql']);
    // Where nothing answers as GraphQL, nothing but GET was sent.
    expect(site.requests.filter((r) => r.endsWith(' /api/graphql'))).toEqual(['GET /api/graphql']);
  });
});

describe('scan scope', () => {
  it("probes the target's own origin, never the host another site redirects to", async () => {
    const elsewhere = await keep(leakyWordPressSite());
    const start = await keep(
      startSite({ routes: { '/': { status: 301, headers: { location: `http://localhost:${elsewhere.port}/` } } } }),
    );
    const result = await scan(start);
    expect(elsewhere.requests).toContain('GET /');
    expect(elsewhere.requests).not.toContain('GET /.git/config');
    expect(start.requests).toContain('GET /.git/config');
    expect(result.findings.filter((f) => f.category === 'EXPOSED_ENDPOINT')).toEqual([]);
  });
});

describe('safety', () => {
  it('refuses loopback targets unless private targets are allowed', async () => {
    const site = await keep(hardenedSite());
    await expect(scanSite(site.url)).rejects.toBeInstanceOf(TargetRefusedError);
    await expect(scanSite(site.url.replace('127.0.0.1', 'localhost'))).rejects.toBeInstanceOf(TargetRefusedError);
    await expect(scanSite(`http://[::ffff:127.0.0.1]:${site.port}/`)).rejects.toBeInstanceOf(TargetRefusedError);
    expect(site.requests).toEqual([]);
  });

  it('refuses a redirect hop to the cloud metadata address even when private targets are allowed', async () => {
    const site = await keep(
      startSite({
        routes: { '/': { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } } },
      }),
    );
    await expect(scan(site)).rejects.toBeInstanceOf(TargetRefusedError);
  });

  it('rejects non-http schemes', async () => {
    await expect(scanSite('file:///etc/passwd')).rejects.toThrow(/http/);
    await expect(scanSite('ftp://example.nl/')).rejects.toThrow(/http/);
  });

  it('ends a scan of a dead site with a clear reason, every test failed for it and nothing found', async () => {
    const site = await keep(hardenedSite());
    await site.close();
    const result = await scan(site);
    expect(result.unreachable).toMatch(/^De site 127\.0\.0\.1:\d+ is niet bereikbaar via HTTP of HTTPS\.$/);
    expect(result.findings).toEqual([]);
    expect(result.coverage.map((c) => c.test)).toEqual([...TEST_NAMES]);
    for (const entry of result.coverage.filter((c) => c.test !== 'mail'))
      expect(entry).toMatchObject({ status: 'failed', reason: `site niet bereikbaar: ${result.unreachable}` });
    // The mail test does not need the web server; here it was not asked for.
    expect(result.coverage.find((c) => c.test === 'mail')).toMatchObject({ status: 'skipped' });
  });

  it('says what the deadline cut and what a refused TLS port left unjudged, in coverage', async () => {
    // The page answers at once; every other path only after the scan's deadline.
    const slow = await keep(
      startSite({
        routes: { '/': { headers: { 'content-type': 'text/html' }, body: '<!doctype html><p>Winkel</p>' } },
        fallback: { status: 404, body: 'niet gevonden', delayMs: 5_000 },
      }),
    );
    const result = await scan(slow, { deadlineMs: 1_500, requestTimeoutMs: 4_000 });
    const entry = (test: string) => result.coverage.filter((c) => c.test === test);
    const origin = slow.url.replace(/\/$/, '');
    expect(entry('exposures')).toEqual([
      {
        test: 'exposures',
        subject: origin,
        status: 'failed',
        reason: 'buiten de tijd van de scan',
      },
    ]);
    expect(result.failed_checks).toContain('exposures');
    // Nothing listens on 127.0.0.1:443: no certificate or suite to judge; HTTPS itself was judged.
    expect(entry('tls')).toEqual([
      {
        test: 'tls',
        subject: 'https://127.0.0.1',
        status: 'not_applicable',
        reason: 'geen TLS-verbinding op poort 443',
      },
    ]);
    expect(entry('https')).toEqual([
      { test: 'https', subject: 'https://127.0.0.1', status: 'completed', reason: null },
    ]);
    expect(types(result)).toContain('https_unavailable');
  });

  it('takes a script answered 503 for a server that could not serve it, not for a script that is gone', async () => {
    const busy = await keep(
      startSite({
        routes: {
          '/': {
            headers: { 'content-type': 'text/html' },
            body: '<!doctype html><script src="/app.js"></script><p>Winkel</p>',
          },
          '/app.js': { status: 503, headers: { 'content-type': 'text/html' }, body: '<p>Even geduld</p>' },
        },
      }),
    );
    const result = await scan(busy);
    expect(result.coverage.filter((c) => c.test === 'client_code')).toEqual([
      { test: 'client_code', subject: busy.url.replace(/\/$/, ''), status: 'completed', reason: null },
      {
        test: 'client_code',
        subject: `${busy.url}app.js`,
        status: 'failed',
        reason: 'de server antwoordde met HTTP 503',
      },
    ]);
  });

  it("judges no page a gateway answers 502 for: its headers and scripts are not the site's", async () => {
    const gateway = await keep(
      startSite({
        routes: {},
        fallback: {
          status: 502,
          headers: { 'content-type': 'text/html', server: 'nginx' },
          body: '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>',
        },
      }),
    );
    const result = await scan(gateway);
    const origin = gateway.url.replace(/\/$/, '');
    for (const test of ['security_headers', 'client_code', 'nextjs_middleware', 'exposures'])
      expect(result.coverage.filter((c) => c.test === test)).toEqual([
        { test, subject: origin, status: 'failed', reason: 'de server antwoordde met HTTP 502' },
      ]);
    expect(result.findings.filter((f) => f.category === 'SECURITY_HEADER')).toEqual([]);
  });

  it('ends a scan of a site that never answers within its bounds', async () => {
    // Accepts connections and never says a word.
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const result = await scanSite(`http://127.0.0.1:${port}/`, {
        allowPrivateTargets: true,
        requestTimeoutMs: 300,
        deadlineMs: 5_000,
      });
      expect(result.unreachable).toMatch(/niet bereikbaar/);
      expect(result.coverage.every((c) => c.status === 'failed' || c.test === 'mail')).toBe(true);
    } finally {
      silent.close();
    }
  });
});
