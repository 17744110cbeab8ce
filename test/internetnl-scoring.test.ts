import { describe, expect, it } from 'vitest';
import type { FindingType } from '../scanner/catalog/index.ts';
import type { InternetNlEvidence } from '../scanner/probes/internetnl.ts';
import { internetNlReport } from '../scanner/report/internetnl.ts';

// Expectations computed as internet.nl's checks/probes.py computes them (Internet.nl at cec0e01):
// Probe._verdict for the verdicts, int(100.0 / max_score * total) for the scores.
const evidence = (over: Partial<InternetNlEvidence> = {}): InternetNlEvidence => ({
  host: 'www.shop.nl',
  dnssec: { state: 'secure', reason: null, extendedError: null },
  ipv6: {
    nameServers: [
      { name: 'ns1.shop.nl', addresses: ['2001:db8::1'], reachable: ['2001:db8::1'] },
      { name: 'ns2.shop.nl', addresses: ['2001:db8::2'], reachable: ['2001:db8::2'] },
    ],
    webAddresses: ['2001:db8::80'],
    webReach: [
      { port: 443, reachable: true },
      { port: 80, reachable: true },
    ],
    sameContent: { v4Status: 200, v6Status: 200, similarity: 1 },
    error: null,
  },
  dane: null,
  rpki: { state: 'not_tested', reason: 'RPKI staat uit' },
  ...over,
});
const none = new Set<FindingType>();
const YEAR = { hstsMaxAge: 31_536_000 };

describe("internet.nl's scoring", () => {
  it('gives HSTS of six months 2 points and fails it, where our own check passes six months', () => {
    const report = internetNlReport(evidence(), none, { hstsMaxAge: 15_768_000 })!;
    expect(report.categories.tls.tests.find((t) => t.name === 'hsts')).toMatchObject({ status: 'failed' });
    // 14 required subtests of 10: 132 of 140 -> 94 (truncated from 94.29), and the part fails.
    expect(report.categories.tls).toMatchObject({ status: 'failed', score: 94 });
    expect(internetNlReport(evidence(), none, YEAR)!.categories.tls).toMatchObject({ status: 'passed', score: 100 });
  });

  it('leaves a category with required subtests passed when only a notice fails (no DANE, no CAA)', () => {
    const report = internetNlReport(evidence(), new Set<FindingType>(['caa_missing']), YEAR)!;
    expect(report.categories.tls.tests.find((t) => t.name === 'dane_exists')!.status).toBe('warning');
    expect(report.categories.tls).toMatchObject({ status: 'passed', score: 100 });
  });

  it('fails a category on a failed subtest that has no points of its own (ns_aaaa)', () => {
    const base = evidence();
    const report = internetNlReport(
      evidence({
        ipv6: {
          ...base.ipv6,
          nameServers: [base.ipv6.nameServers![0]!, { name: 'ns2.shop.nl', addresses: [], reachable: [] }],
        },
      }),
      none,
      YEAR,
    )!;
    expect(report.categories.ipv6.tests.find((t) => t.name === 'ns_aaaa')!.status).toBe('failed');
    expect(report.categories.ipv6).toMatchObject({ status: 'failed', score: 100 });
  });

  it('truncates scores: 14 of 22 points is 63, not 64; the website score truncates the mean too', () => {
    const base = evidence();
    // ns_reach 10, web_reach 2 (one port of two), web_ipv46 2, of 22: 14/22 = 63.6 -> 63.
    const report = internetNlReport(
      evidence({
        ipv6: {
          ...base.ipv6,
          webReach: [
            { port: 443, reachable: true },
            { port: 80, reachable: false },
          ],
        },
      }),
      none,
      YEAR,
    )!;
    expect(report.categories.ipv6.score).toBe(63);
    // (63 + 100 + 100) / 3 = 87.67 -> 87.
    expect(report.score).toBe(87);
  });

  it('scores a DNSSEC error 0 and fails dnssec_exists, as internet.nl does', () => {
    const report = internetNlReport(
      evidence({ dnssec: { state: 'error', reason: 'SERVFAIL op de SOA', extendedError: null } }),
      none,
      YEAR,
    )!;
    expect(report.categories.dnssec).toMatchObject({ status: 'error', score: 0 });
    expect(report.categories.dnssec.tests.find((t) => t.name === 'dnssec_exists')!.status).toBe('failed');
    expect(report.score).toBe(Math.trunc((100 + 0 + 100) / 3));
  });
});
