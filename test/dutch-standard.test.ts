import { afterAll, describe, expect, it } from 'vitest';
import { scanSite, TargetRefusedError, type ScanResult } from '../scanner/index.ts';
import { certificate, startSite, type FixtureSite, type Reply, type Route } from './support/fixture-sites.ts';
import { startDnsServer, type DnsServer } from './support/dns-server.ts';
import { HARDENED_HEADERS } from './support/sites.ts';

// What the Dutch standard asks beyond TLS, on loopback fixtures: security.txt (RFC 9116), mixed
// content, and CAA records through a name server the test starts.

const DAY = 86_400_000;
const closers: Array<{ close: () => Promise<void> }> = [];
afterAll(async () => Promise.all(closers.map((c) => c.close())));
const keep = async <T extends { close: () => Promise<void> }>(started: Promise<T>): Promise<T> => {
  const value = await started;
  closers.push(value);
  return value;
};
const types = (result: ScanResult) => result.findings.map((f) => f.finding_type);
const find = (result: ScanResult, type: string) => result.findings.find((f) => f.finding_type === type);
const scan = (site: FixtureSite, extra = {}) =>
  scanSite(site.url, { allowPrivateTargets: true, probeExposures: false, ...extra });

const text = (body: string, type = 'text/plain; charset=utf-8'): Reply => ({ headers: { 'content-type': type }, body });
const expires = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const VALID = `# Beveiligingsmeldingen\nContact: mailto:security@voorbeeld.nl\nContact: https://voorbeeld.nl/melden\nExpires: ${expires(200)}\nPreferred-Languages: nl, en\nPolicy: https://voorbeeld.nl/beleid\n`;
/** A single-page app's shell: what many sites answer for every unknown path, with 200. */
const SPA_SHELL: Reply = {
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: '<!doctype html><html><head><title>Shop</title></head><body><div id="root"></div><script src="/assets/index.js"></script></body></html>',
};

function httpsSite(
  routes: Record<string, Route>,
  options: { fallback?: Route; page?: string; headers?: Record<string, string> } = {},
): Promise<FixtureSite> {
  return keep(
    startSite({
      tls: { certificate: certificate() },
      gzip: true,
      fallback: options.fallback,
      routes: {
        '/': {
          headers: { ...HARDENED_HEADERS, ...options.headers },
          body: options.page ?? '<!doctype html><html><body>ok</body></html>',
        },
        ...routes,
      },
    }),
  );
}

const securityTxtTypes = (result: ScanResult) => types(result).filter((t) => t.startsWith('security_txt'));

describe('security.txt (RFC 9116) on the HTTPS origin', () => {
  it('accepts a valid file served gzip-compressed as text/plain', async () => {
    const site = await httpsSite({ '/.well-known/security.txt': text(VALID) });
    expect(securityTxtTypes(await scan(site))).toEqual([]);
    expect(site.requests).toContain('GET /.well-known/security.txt');
  });

  it('accepts a PGP cleartext-signed file', async () => {
    const signed = [
      '-----BEGIN PGP SIGNED MESSAGE-----',
      'Hash: SHA512',
      '',
      ...VALID.trim().split('\n'),
      '- -- dash-escaped line',
      '-----BEGIN PGP SIGNATURE-----',
      '',
      'iHUEARYKAB0WIQTxbv0T',
      '=abcd',
      '-----END PGP SIGNATURE-----',
      '',
    ].join('\n');
    const site = await httpsSite({ '/.well-known/security.txt': text(signed) });
    expect(securityTxtTypes(await scan(site))).toEqual([]);
  });

  it('reports a missing file on a site whose unknown paths answer with its HTML shell (soft 404), never taking the shell for the file', async () => {
    const site = await httpsSite({}, { fallback: SPA_SHELL });
    const result = await scan(site);
    expect(securityTxtTypes(result)).toEqual(['security_txt_missing']);
    expect(find(result, 'security_txt_missing')).toMatchObject({ category: 'SECURITY_HEADER', severity: 'LOW' });
    expect(find(result, 'security_txt_missing')!.endpoint).toMatch(/\/\.well-known\/security\.txt$/);
  });

  it('reports a missing file behind a real 404 page', async () => {
    expect(securityTxtTypes(await scan(await httpsSite({})))).toEqual(['security_txt_missing']);
  });

  it('reports a file found only at the legacy /security.txt', async () => {
    const result = await scan(await httpsSite({ '/security.txt': text(VALID) }));
    expect(securityTxtTypes(result)).toEqual(['security_txt_legacy_location']);
  });

  it('follows a redirect from /.well-known/security.txt', async () => {
    const site = await httpsSite({
      '/.well-known/security.txt': { status: 301, headers: { location: '/beveiliging/security.txt' } },
      '/beveiliging/security.txt': text(VALID),
    });
    expect(securityTxtTypes(await scan(site))).toEqual([]);
  });

  it.each([
    ['served as text/html', text(VALID, 'text/html'), ['security_txt_wrong_content_type']],
    [
      'served as application/octet-stream',
      text(VALID, 'application/octet-stream'),
      ['security_txt_wrong_content_type'],
    ],
    [
      'without Contact',
      text(`Expires: ${expires(100)}\nPolicy: https://voorbeeld.nl/beleid\n`),
      ['security_txt_no_contact'],
    ],
    ['without Expires', text('Contact: mailto:security@voorbeeld.nl\n'), ['security_txt_no_expires']],
    ['with two Expires', text(`${VALID}Expires: ${expires(300)}\n`), ['security_txt_multiple_expires']],
    ['expired', text(`Contact: mailto:security@voorbeeld.nl\nExpires: ${expires(-3)}\n`), ['security_txt_expired']],
    [
      'expiring within 30 days',
      text(`Contact: mailto:security@voorbeeld.nl\nExpires: ${expires(12)}\n`),
      ['security_txt_expires_soon'],
    ],
    [
      'expiring in more than a year',
      text(`Contact: mailto:security@voorbeeld.nl\nExpires: ${expires(500)}\n`),
      ['security_txt_expires_too_far'],
    ],
    [
      'with an unreadable Expires',
      text('Contact: mailto:security@voorbeeld.nl\nExpires: 1 januari 2027\n'),
      ['security_txt_expires_invalid'],
    ],
    [
      'empty and expired at once',
      text(`Policy: https://voorbeeld.nl/beleid\nExpires: ${expires(-1)}\n`, 'text/html'),
      ['security_txt_expired', 'security_txt_no_contact', 'security_txt_wrong_content_type'],
    ],
  ])('reports a file %s', async (_name, reply, expected) => {
    const result = await scan(await httpsSite({ '/.well-known/security.txt': reply }));
    expect(securityTxtTypes(result).sort()).toEqual([...expected].sort());
    for (const type of expected) expect(find(result, type)!.description.length).toBeGreaterThan(20);
  });

  it('does not look for security.txt on a site without HTTPS', async () => {
    const site = await keep(
      startSite({ routes: { '/': { headers: { 'content-type': 'text/html' }, body: '<html></html>' } } }),
    );
    const result = await scan(site);
    expect(securityTxtTypes(result)).toEqual([]);
    expect(site.requests).not.toContain('GET /.well-known/security.txt');
  });
});

describe('mixed content on an HTTPS page', () => {
  const page = (body: string) => `<!doctype html><html><head><title>Winkel</title></head><body>${body}</body></html>`;
  const mixed = (result: ScanResult) =>
    Object.fromEntries(
      result.findings
        .filter((f) => f.finding_type.startsWith('mixed_content'))
        .map((f) => [f.finding_type, `${f.severity} ${f.actual_value}`]),
    );

  it('grades http:// scripts and password forms HIGH, stylesheets and frames MEDIUM, images LOW, naming the URLs', async () => {
    const site = await httpsSite(
      {},
      {
        page: page(
          '<script src="http://cdn.voorbeeld.nl/jquery.js"></script><link rel="stylesheet" href="http://cdn.voorbeeld.nl/site.css">' +
            '<iframe src="http://video.voorbeeld.nl/embed/1"></iframe><img src="http://img.voorbeeld.nl/logo.png" alt="logo">' +
            '<form action="http://login.voorbeeld.nl/inloggen" method="post"><input name="u"><input type="password" name="p"></form>',
        ),
      },
    );
    expect(mixed(await scan(site))).toEqual({
      mixed_content_script: 'HIGH http://cdn.voorbeeld.nl/jquery.js',
      mixed_content_password_form: 'HIGH http://login.voorbeeld.nl/inloggen',
      mixed_content_active: 'MEDIUM http://cdn.voorbeeld.nl/site.css http://video.voorbeeld.nl/embed/1',
      mixed_content_passive: 'LOW http://img.voorbeeld.nl/logo.png',
    });
  });

  it('turns the passive case off with upgrade-insecure-requests, and says so in the remedy', async () => {
    const csp = `${HARDENED_HEADERS['content-security-policy']}; upgrade-insecure-requests`;
    const site = await httpsSite(
      {},
      {
        page: page('<img src="http://img.voorbeeld.nl/logo.png"><script src="http://cdn.voorbeeld.nl/a.js"></script>'),
        headers: { 'content-security-policy': csp },
      },
    );
    const result = await scan(site);
    expect(Object.keys(mixed(result))).toEqual(['mixed_content_script']);
    expect(find(result, 'mixed_content_script')!.remediation).toContain('upgrade-insecure-requests');
  });

  it('reports nothing for https://, relative and protocol-relative URLs, links, or an http:// page', async () => {
    const body = page(
      '<script src="/app.js"></script><img src="//img.voorbeeld.nl/a.png"><a href="http://elders.voorbeeld.nl/">link</a><form action="/zoek"><input name="q"></form>',
    );
    expect(mixed(await scan(await httpsSite({}, { page: body })))).toEqual({});
    const plain = await keep(
      startSite({
        routes: {
          '/': {
            headers: { 'content-type': 'text/html' },
            body: page('<script src="http://cdn.voorbeeld.nl/a.js"></script>'),
          },
        },
      }),
    );
    expect(mixed(await scan(plain))).toEqual({});
  });
});

describe('CAA records through the configured name server', () => {
  let dns: DnsServer;
  const hosted = (name: string, site: FixtureSite) => `http://${name}:${site.port}/`;

  it('reports a domain without CAA, climbs to the parent for a subdomain, and stays silent when the name server fails', async () => {
    dns = await keep(
      startDnsServer({
        'zonder-caa.test': { a: ['127.0.0.1'] },
        'met-caa.test': { a: ['127.0.0.1'], caa: [{ tag: 'issue', value: 'letsencrypt.org' }] },
        'www.met-caa.test': { a: ['127.0.0.1'] },
        'kapot.test': { a: ['127.0.0.1'], servfail: ['CAA'] },
      }),
    );
    const site = await keep(
      startSite({ routes: { '/': { headers: { 'content-type': 'text/html' }, body: '<html></html>' } } }),
    );
    const options = { allowPrivateTargets: true, probeExposures: false, dnsServers: [dns.address] };
    const without = await scanSite(hosted('zonder-caa.test', site), options);
    expect(find(without, 'caa_missing')).toMatchObject({
      category: 'SSL_TLS',
      severity: 'LOW',
      endpoint: hosted('zonder-caa.test', site),
    });
    expect(dns.questions).toContain('CAA zonder-caa.test');
    expect(types(await scanSite(hosted('met-caa.test', site), options))).not.toContain('caa_missing');
    expect(types(await scanSite(hosted('www.met-caa.test', site), options))).not.toContain('caa_missing');
    expect(dns.questions).toEqual(expect.arrayContaining(['CAA www.met-caa.test', 'CAA met-caa.test']));
    // Names the system's resolver does not know reached the site: the connections used the same name server.
    expect(site.requests.length).toBeGreaterThan(0);
    // No CAA answer at all (SERVFAIL) is not taken as "no CAA".
    const broken = await scanSite(hosted('kapot.test', site), options);
    expect(dns.questions).toContain('CAA kapot.test');
    expect(types(broken)).not.toContain('caa_missing');
  });

  it('lets the address guard resolve through the same name server: a name pointing at loopback is refused', async () => {
    const site = await keep(
      startSite({ routes: { '/': { headers: { 'content-type': 'text/html' }, body: '<html></html>' } } }),
    );
    await expect(
      scanSite(hosted('zonder-caa.test', site), { dnsServers: [dns.address], probeExposures: false }),
    ).rejects.toBeInstanceOf(TargetRefusedError);
    expect(site.requests).toEqual([]);
  });

  it('does not wait on a name server that never answers AAAA, and asks once per host for the whole scan', async () => {
    const quiet = await keep(startDnsServer({ 'stil.test': { a: ['127.0.0.1'], silent: ['AAAA', 'CAA'] } }));
    const site = await keep(
      startSite({ routes: { '/': { headers: { 'content-type': 'text/html' }, body: '<html></html>' } } }),
    );
    const began = Date.now();
    const result = await scanSite(hosted('stil.test', site), {
      allowPrivateTargets: true,
      dnsServers: [quiet.address],
    });
    expect(result.grade).toBeDefined();
    // A scan of ~80 requests over several connections: the answer is reused, not asked per connection.
    expect(quiet.questions.filter((q) => q === 'A stil.test').length).toBeLessThanOrEqual(2);
    // Bounded by the CAA look-up's own time-outs (2 x 3 s), not by one time-out per connection.
    expect(Date.now() - began).toBeLessThan(15_000);
    expect(types(result)).not.toContain('caa_missing');
  }, 30_000);

  it('looks up no CAA for an IP address or localhost', async () => {
    const site = await keep(
      startSite({ routes: { '/': { headers: { 'content-type': 'text/html' }, body: '<html></html>' } } }),
    );
    const asked = dns.questions.length;
    expect(types(await scan(site, { dnsServers: [dns.address] }))).not.toContain('caa_missing');
    expect(
      types(
        await scanSite(`http://localhost:${site.port}/`, {
          allowPrivateTargets: true,
          probeExposures: false,
          dnsServers: [dns.address],
        }),
      ),
    ).not.toContain('caa_missing');
    expect(dns.questions.length).toBe(asked);
  });
});
