import { createHash, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { FindingType } from '../scanner/catalog/index.ts';
import type { InternetNlEvidence } from '../scanner/probes/internetnl.ts';
import { internetNlReport, type InternetNlSiteFacts } from '../scanner/report/internetnl.ts';
import { daneMatches } from '../scanner/probes/internetnl.ts';
import { createCa, issueCertificate } from './support/test-ca.ts';

// Expectations computed as internet.nl's checks/probes.py computes them (Internet.nl at cec0e01):
// Probe._verdict for the verdicts, int(100.0 / max_score * total) for the scores.
const WEB = { v6Good: ['2001:db8::80'], v6Bad: [], v4Good: ['192.0.2.80'], v4Bad: [], portDiff: [] };
/** The page over both families: ports 80 and 443, status 200, the same page. */
const same = (over: Partial<NonNullable<InternetNlEvidence['ipv6']['sameContent']>> = {}) => ({
  v4Ports: [80, 443],
  v6Ports: [80, 443],
  v4Status: 200,
  v6Status: 200,
  similarity: 1,
  ...over,
});
const evidence = (over: Partial<InternetNlEvidence> = {}): InternetNlEvidence => ({
  host: 'www.shop.nl',
  dnssec: { state: 'secure', reason: null, extendedError: null },
  ipv6: {
    nameServers: [
      { name: 'ns1.shop.nl', addresses: ['2001:db8::1'], reachable: ['2001:db8::1'] },
      { name: 'ns2.shop.nl', addresses: ['2001:db8::2'], reachable: ['2001:db8::2'] },
    ],
    webAddresses: ['2001:db8::80'],
    web: WEB,
    sameContent: same(),
    error: null,
  },
  dane: null,
  rpki: { state: 'not_tested', reason: 'RPKI staat uit' },
  ...over,
});
const none = new Set<FindingType>();
const YEAR = { hstsMaxAge: 31_536_000, zeroRtt: false, addresses: [] };
/** The report of the default evidence with parts of its IPv6 evidence replaced. */
const withIpv6 = (over: Partial<InternetNlEvidence['ipv6']>) =>
  internetNlReport(evidence({ ipv6: { ...evidence().ipv6, ...over } }), none, YEAR)!;

describe("internet.nl's scoring", () => {
  it('gives HSTS of six months 2 points and fails it, where our own check passes six months', () => {
    const report = internetNlReport(evidence(), none, { ...YEAR, hstsMaxAge: 15_768_000 })!;
    expect(report.categories.tls.tests.find((t) => t.name === 'hsts')).toMatchObject({ status: 'failed' });
    // 15 required subtests of 10: 142 of 150 -> 94 (truncated from 94.67), and the part fails.
    expect(report.categories.tls).toMatchObject({ status: 'failed', score: 94 });
    expect(internetNlReport(evidence(), none, YEAR)!.categories.tls).toMatchObject({ status: 'passed', score: 100 });
  });

  it('fails https_forced when the first redirect leaves the host, even to https', () => {
    const report = internetNlReport(evidence(), new Set<FindingType>(['http_redirect_off_host']), YEAR)!;
    expect(report.categories.tls.tests.find((t) => t.name === 'https_forced')!.status).toBe('failed');
    // 140 of 150 (15 required subtests, zero_rtt among them) -> 93.
    expect(report.categories.tls).toMatchObject({ status: 'failed', score: 93 });
  });

  it('keeps the worst address for https_forced and hsts, as internet.nl judges each address', () => {
    const good: InternetNlSiteFacts['addresses'][number] = {
      address: '192.0.2.80',
      forcedHttps: 'good',
      hstsMaxAge: 31_536_000,
    };
    const report = (addresses: Array<typeof good>) => internetNlReport(evidence(), none, { ...YEAR, addresses })!;
    const tlsOf = (r: ReturnType<typeof report>, name: string) => r.categories.tls.tests.find((t) => t.name === name)!;
    expect(report([good]).categories.tls).toMatchObject({ status: 'passed', score: 100 });
    // Nothing on 80 over one family is full points (WEB_TLS_FORCED_HTTPS_NO_HTTP).
    expect(report([good, { ...good, address: '2001:db8::80', forcedHttps: 'no_http' }]).categories.tls.score).toBe(100);
    const bad = report([good, { ...good, address: '2001:db8::80', forcedHttps: 'bad', hstsMaxAge: null }]);
    expect(tlsOf(bad, 'https_forced')).toMatchObject({
      status: 'failed',
      detail: expect.stringMatching(/2001:db8::80/),
    });
    expect(tlsOf(bad, 'hsts')).toMatchObject({ status: 'failed' });
    // 130 of 150 -> 86.
    expect(bad.categories.tls.score).toBe(86);
    // Six months on one address: 2 points and failed.
    const short = report([good, { ...good, address: '2001:db8::80', hstsMaxAge: 15_768_000 }]);
    expect(tlsOf(short, 'hsts')).toMatchObject({ status: 'failed', detail: expect.stringMatching(/15768000/) });
    expect(short.categories.tls.score).toBe(94);
  });

  it('counts zero_rtt in the TLS maximum: a server that offers early data fails it with 0 of 10', () => {
    const report = internetNlReport(evidence(), none, { ...YEAR, zeroRtt: true })!;
    expect(report.categories.tls.tests.find((t) => t.name === 'zero_rtt')!.status).toBe('failed');
    // 140 of 150 -> 93.
    expect(report.categories.tls).toMatchObject({ status: 'failed', score: 93 });
  });

  it('leaves a category with required subtests passed when only a notice fails (no DANE, no CAA)', () => {
    const report = internetNlReport(evidence(), new Set<FindingType>(['caa_missing']), YEAR)!;
    expect(report.categories.tls.tests.find((t) => t.name === 'dane_exists')!.status).toBe('warning');
    expect(report.categories.tls).toMatchObject({ status: 'passed', score: 100 });
  });

  it('fails a category on a failed subtest that has no points of its own (ns_aaaa)', () => {
    const report = withIpv6({
      nameServers: [evidence().ipv6.nameServers![0]!, { name: 'ns2.shop.nl', addresses: [], reachable: [] }],
    });
    expect(report.categories.ipv6.tests.find((t) => t.name === 'ns_aaaa')!.status).toBe('failed');
    // Only one of two name servers has an AAAA: none is left out, ns_reach is (10 + 0) / 2 = 5 -> 17 of 22.
    expect(report.categories.ipv6).toMatchObject({ status: 'failed', score: 77 });
  });

  it('truncates scores: 14 of 22 points is 63, not 64; the website score truncates the mean too', () => {
    // ns_reach 10, web_reach 2 (one of two IPv6 addresses answers), web_ipv46 2, of 22: 14/22 = 63.6 -> 63.
    const report = withIpv6({ web: { ...WEB, v6Good: ['2001:db8::80'], v6Bad: ['2001:db8::81'] } });
    expect(report.categories.ipv6.score).toBe(63);
    // (63 + 100 + 100) / 3 = 87.67 -> 87.
    expect(report.score).toBe(87);
  });

  it("shows an insecure zone's dnssec_valid as not tested with its 2 points, as internet.nl does", () => {
    const report = internetNlReport(
      evidence({ dnssec: { state: 'insecure', reason: null, extendedError: null } }),
      none,
      YEAR,
    )!;
    expect(report.categories.dnssec.tests.find((t) => t.name === 'dnssec_valid')!.status).toBe('not_tested');
    expect(report.categories.dnssec).toMatchObject({ status: 'failed', score: 20 });
  });

  it('scores a DNSSEC error 0 and fails dnssec_exists, as internet.nl does', () => {
    const report = internetNlReport(
      evidence({ dnssec: { state: 'error', reason: 'SERVFAIL op de SOA', extendedError: null } }),
      none,
      YEAR,
    )!;
    // A SERVFAIL fails dnssec_exists; dnssec_valid shows as not tested: the part fails with 0.
    expect(report.categories.dnssec).toMatchObject({ status: 'failed', score: 0 });
    expect(report.categories.dnssec.tests.find((t) => t.name === 'dnssec_exists')!.status).toBe('failed');
    expect(report.score).toBe(Math.trunc((100 + 0 + 100) / 3));
  });

  describe('RPKI, as checks/tasks/rpki.py reports it', () => {
    const route = (address: string, validity: 'valid' | 'invalid' | 'not_found' | 'not_routed') => ({
      address,
      prefix: '192.0.2.0/24',
      asn: 64500,
      validity,
    });
    const rpki = (web: ReturnType<typeof route>[], nameServers: ReturnType<typeof route>[]) =>
      internetNlReport(evidence({ rpki: { state: 'tested', web, nameServers } }), none, YEAR)!.categories.rpki;
    const sub = (part: ReturnType<typeof rpki>, name: string) => part.tests.find((t) => t.name === name)!;

    it('gives full points when every route is valid', () => {
      expect(rpki([route('192.0.2.1', 'valid')], [route('192.0.2.53', 'valid')])).toMatchObject({
        status: 'passed',
        score: 100,
      });
    });

    it('fails a route without a ROA with 0 points, its existence a notice that scores 0 too', () => {
      const part = rpki([route('192.0.2.1', 'not_found')], [route('192.0.2.53', 'valid')]);
      expect(sub(part, 'web_exists').status).toBe('warning');
      expect(sub(part, 'web_valid').status).toBe('failed');
      // (0 + 0 + 5 + 10) of 30 -> 50.
      expect(part).toMatchObject({ status: 'failed', score: 50 });
    });

    it('fails an invalid route origin', () => {
      expect(rpki([route('192.0.2.1', 'invalid')], [route('192.0.2.53', 'valid')])).toMatchObject({
        status: 'failed',
        score: 66,
      });
    });

    it('scores unrouted addresses full for validity (not tested)', () => {
      const part = rpki([route('192.0.2.1', 'not_routed')], [route('192.0.2.53', 'valid')]);
      expect(sub(part, 'web_valid').status).toBe('not_tested');
      expect(part).toMatchObject({ status: 'passed', score: 100 });
    });
  });

  describe('ns_reach, as tasks/ipv6.py do_ns scores it', () => {
    const ns = (name: string, addresses: string[], reachable: string[]) => ({ name, addresses, reachable });
    const ipv6Of = (nameServers: ReturnType<typeof ns>[]) => withIpv6({ nameServers }).categories.ipv6;
    const reach = (part: ReturnType<typeof ipv6Of>) => part.tests.find((t) => t.name === 'ns_reach')!;

    it('caps a single name server at 5 points, and fails ns_aaaa', () => {
      const part = ipv6Of([ns('ns1.shop.nl', ['2001:db8::1'], ['2001:db8::1'])]);
      expect(reach(part).status).toBe('passed');
      // ns_reach 5 + web_reach 10 + web_ipv46 2 of 22 -> 77.
      expect(part).toMatchObject({ status: 'failed', score: 77 });
    });

    it('leaves IPv4-only name servers out once two have an AAAA, and averages the rest', () => {
      const part = ipv6Of([
        ns('ns1.shop.nl', ['2001:db8::1'], ['2001:db8::1']),
        ns('ns2.shop.nl', ['2001:db8::2', '2001:db8::3'], ['2001:db8::2']),
        ns('ns3.shop.nl', [], []),
      ]);
      // (10 + 2) / 2 = 6; ns_reach fails on the unreachable address: 6 + 10 + 2 of 22 -> 81.
      expect(reach(part)).toMatchObject({ status: 'failed' });
      expect(part.score).toBe(81);
    });
  });

  describe('web_ipv46 and a web host without IPv6, as tasks/ipv6.py gives them', () => {
    const ipv6With = (over: Partial<InternetNlEvidence['ipv6']>) => withIpv6(over).categories.ipv6;
    const ipv46 = (part: ReturnType<typeof ipv6With>) => part.tests.find((t) => t.name === 'web_ipv46')!;

    it('keeps web_reach and web_ipv46 in the maximum without an AAAA', () => {
      const part = ipv6With({ webAddresses: [], web: { ...WEB, v6Good: [] }, sameContent: null });
      expect(ipv46(part).status).toBe('not_tested');
      // ns_reach 10 of 22 -> 45, as internet.nl scores an apex with IPv4 only.
      expect(part).toMatchObject({ status: 'failed', score: 45 });
    });

    it("shows another status per family as failed, yet scores it 2 (internet.nl's quirk)", () => {
      const part = ipv6With({ sameContent: same({ v6Status: 503 }) });
      expect(ipv46(part).status).toBe('failed');
      expect(part).toMatchObject({ status: 'failed', score: 100 });
    });

    it('calls pages 20% apart a notice with 0 points, and 5% apart the same page', () => {
      const apart = ipv6With({ sameContent: same({ similarity: 0.8 }) });
      expect(ipv46(apart).status).toBe('warning');
      // 20 of 22 -> 90; a notice does not change a category with required subtests.
      expect(apart).toMatchObject({ status: 'passed', score: 90 });
      expect(ipv46(ipv6With({ sameContent: same({ similarity: 0.95 }) })).status).toBe('passed');
    });

    it('counts an address reachable on either port, and a port that answers over IPv4 only as partial points and a failed comparison', () => {
      // An HTTPS-only site: 443 on both families, nothing on 80. Full points, as internet.nl gives.
      const httpsOnly = ipv6With({ sameContent: same({ v4Ports: [443], v6Ports: [443] }) });
      expect(httpsOnly).toMatchObject({ status: 'passed', score: 100 });
      // Port 80 answers over IPv4 only: web_reach keeps its verdict with 2 points, web_ipv46 fails with 0.
      const fewer = ipv6With({ web: { ...WEB, portDiff: [80] }, sameContent: null });
      expect(fewer.tests.find((t) => t.name === 'web_reach')!.status).toBe('passed');
      expect(ipv46(fewer).status).toBe('failed');
      // ns_reach 10 + web_reach 2 + web_ipv46 0 = 12 of 22 -> 54.
      expect(fewer).toMatchObject({ status: 'failed', score: 54 });
      // A second IPv6 address that does not answer: web_reach fails with 2, the pages still compare.
      const dead = ipv6With({ web: { ...WEB, v6Bad: ['2001:db8::81'] } });
      expect(dead.tests.find((t) => t.name === 'web_reach')!.status).toBe('failed');
      expect(ipv46(dead).status).toBe('passed');
      expect(dead).toMatchObject({ status: 'failed', score: 63 });
      // IPv6 only: nothing to compare, the subtest's 2 points all the same.
      const only6 = ipv6With({ web: { ...WEB, v4Good: [] }, sameContent: null });
      expect(ipv46(only6).status).toBe('not_tested');
      expect(only6).toMatchObject({ status: 'passed', score: 100 });
    });

    it('calls the same 4xx or 5xx on both families a notice with its 2 points', () => {
      const part = ipv6With({ sameContent: same({ v4Status: 404, v6Status: 404 }) });
      expect(ipv46(part).status).toBe('warning');
      expect(part).toMatchObject({ status: 'passed', score: 100 });
    });
  });

  describe('DANE usages as ldns-dane verifies them on port 443', () => {
    const ca = createCa();
    const der = (pem: string) => new X509Certificate(pem).raw;
    const leaf = der(issueCertificate(ca, { hosts: ['www.shop.nl'] }).certPem);
    const chain = [leaf, der(ca.certPem)];
    const record = (usage: number, cert: Buffer) => ({
      usage,
      selector: 0,
      matchingType: 1,
      certificate: createHash('sha256').update(cert).digest(),
    });

    it('matches 3 on the leaf and 2 above it whether or not the chain is trusted; 1 and 0 only on a trusted chain', () => {
      expect(daneMatches([record(3, leaf)], chain, false)).toBe(true);
      expect(daneMatches([record(2, chain[1]!)], chain, false)).toBe(true);
      // A usage 2 record of the leaf itself names no certificate above it.
      expect(daneMatches([record(2, leaf)], chain, true)).toBe(false);
      expect(daneMatches([record(1, leaf)], chain, false)).toBe(false);
      expect(daneMatches([record(1, leaf)], chain, true)).toBe(true);
      expect(daneMatches([record(0, chain[1]!)], chain, false)).toBe(false);
      expect(daneMatches([record(0, chain[1]!)], chain, true)).toBe(true);
      expect(daneMatches([record(3, leaf)], [], true)).toBeNull();
    });

    it('shows a bogus TLSA set as bogus, not as no records, and leaves it out of the score', () => {
      const report = internetNlReport(
        evidence({ dane: { records: ['3 1 1 ab'], secure: false, matches: true, bogus: true } }),
        none,
        YEAR,
      )!;
      expect(report.categories.tls.tests.find((t) => t.name === 'dane_exists')).toMatchObject({
        status: 'warning',
        detail: expect.stringMatching(/bogus/),
      });
      expect(report.categories.tls).toMatchObject({ status: 'passed', score: 100 });
    });
  });
});
