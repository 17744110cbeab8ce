import { describe, expect, it } from 'vitest';
import { mailDomainOf } from '../scanner/net/registrable-domain.ts';
import { probeMailDns, type MailEvidence, type SpfNode } from '../scanner/probes/mail-dns.ts';
import { mailReport } from '../scanner/report/mail.ts';
import {
  mxCoveredBy,
  parseDmarc,
  parseMtaStsPolicy,
  parseSpf,
  tlsRptTargetsOf,
} from '../scanner/rules/mail-records.ts';
import type { MailRun } from '../scanner/types.ts';
import { startDnsServer } from './support/dns-server.ts';

// The mail test's parsers and scoring over evidence written here (the lab test, mail.test.ts, asks
// real name servers): the cases a lab zone cannot show cheaply.

const SECURE = { state: 'secure' as const, reason: null, extendedError: null };
const node = (domain: string, record: string | null, extra: Partial<SpfNode> = {}): SpfNode => ({
  domain,
  record,
  problem: null,
  voids: [],
  children: [],
  ...extra,
});

const spfOf = (tree: SpfNode) => ({ records: [tree.record!], error: null, tree });

function evidence(overrides: Partial<MailEvidence> = {}): MailEvidence {
  const spf = overrides.spf?.tree ?? node('shop.nl', 'v=spf1 mx -all');
  return {
    domain: 'shop.nl',
    error: null,
    mxStatus: 'has_mx',
    mx: [
      {
        host: 'mx.shop.nl',
        preference: 10,
        addresses: ['192.0.2.25', '2001:db8::25'],
        dnssec: SECURE,
        tlsa: { records: [], secure: false, bogus: false },
      },
    ],
    nullMxWithOthers: false,
    dnssec: SECURE,
    nameServers: [
      { name: 'ns1.shop.nl', addresses: ['2001:db8::53'], reachable: ['2001:db8::53'] },
      { name: 'ns2.shop.nl', addresses: ['2001:db8::54'], reachable: ['2001:db8::54'] },
    ],
    spf: { records: spf.record ? [spf.record] : [], error: null, tree: spf },
    dmarc: {
      records: ['v=DMARC1; p=reject'],
      at: 'shop.nl',
      orgDomain: false,
      error: null,
      treeWalk: { asked: ['shop.nl'], foundAt: 'shop.nl' },
      external: [],
    },
    dkim: 'exists',
    mtaSts: { records: [], id: null, policy: null, problems: [] },
    tlsRpt: { records: [] },
    bimi: { records: [] },
    rpki: { state: 'not_tested', reason: 'niet ingesteld' },
    ...overrides,
  };
}
const reportOf = (e: MailEvidence) => {
  const run: MailRun = {
    domain: e.domain,
    status: 'tested',
    reason: null,
    evidence: e,
    smtp: { state: 'not_tested', reason: 'uit', hosts: [] },
  };
  return mailReport(run)!;
};
const testOf = (report: ReturnType<typeof reportOf>, category: 'auth' | 'ipv6' | 'dnssec', name: string) =>
  report.internetnl!.categories[category].tests.find((t) => t.name === name)!;

describe('mail records', () => {
  it('parses SPF terms and refuses what is no SPF', () => {
    expect(parseSpf('v=spf1 ip4:192.0.2.0/24 a:mail.shop.nl/24 ~all exp=why.shop.nl')).toEqual([
      { text: 'ip4:192.0.2.0/24', kind: 'ip4', qualifier: '+', target: '192.0.2.0' },
      { text: 'a:mail.shop.nl/24', kind: 'a', qualifier: '+', target: 'mail.shop.nl' },
      { text: '~all', kind: 'all', qualifier: '~', target: null },
      { text: 'exp=why.shop.nl', kind: 'exp', qualifier: '+', target: 'why.shop.nl' },
    ]);
    expect(parseSpf('v=spf1 include -all')).toBeNull();
    expect(parseSpf('v=spf1 bogus:x -all')).toBeNull();
    expect(parseSpf('spf2.0/pra -all')).toBeNull();
  });

  it('reads DMARC tags, report hosts and test mode', () => {
    expect(
      parseDmarc('v=DMARC1; p=quarantine; sp=none; t=y; rua=mailto:a@Reports.Example!10m,https://x'),
    ).toMatchObject({
      policy: 'quarantine',
      subdomainPolicy: 'none',
      testing: true,
      reportHosts: ['reports.example'],
    });
    expect(parseDmarc('p=reject; v=DMARC1')).toBeNull();
    expect(parseDmarc('v=DMARC1; p=maybe')).toMatchObject({ policy: null });
  });

  it('parses an MTA-STS policy strictly, and matches MX hosts to its patterns', () => {
    expect(parseMtaStsPolicy('version: STSv1\nmode: testing\nmx: *.shop.nl\nmax_age: 86400\n')).toEqual({
      policy: { mode: 'testing', mx: ['*.shop.nl'], maxAge: 86400 },
    });
    const bad = parseMtaStsPolicy('version: STSv1\nmode: enforce\nmode: testing\nmax_age: 99999999999\n');
    expect('problems' in bad && bad.problems).toEqual([
      'mode staat er 2 keer in',
      'max_age ontbreekt of ligt niet tussen 0 en 31557600',
      'geen mx-regel',
    ]);
    expect(mxCoveredBy('mx1.shop.nl.', ['*.shop.nl'])).toBe(true);
    expect(mxCoveredBy('a.mx1.shop.nl', ['*.shop.nl'])).toBe(false);
    expect(mxCoveredBy('shop.nl', ['*.shop.nl'])).toBe(false);
    expect(mxCoveredBy('MX.Shop.nl', ['mx.shop.nl'])).toBe(true);
  });

  it('takes TLS-RPT targets that are mailto: or https:', () => {
    expect(tlsRptTargetsOf('v=TLSRPTv1; rua=mailto:tls@shop.nl,https://r.shop.nl/tls,ftp://x')).toEqual({
      targets: ['mailto:tls@shop.nl', 'https://r.shop.nl/tls', 'ftp://x'],
      bad: ['ftp://x'],
    });
    expect(tlsRptTargetsOf('v=STSv1; id=1')).toBeNull();
  });
});

describe('the mail domain', () => {
  it('is the registrable domain by the ICANN list; a platform suffix is not applicable', () => {
    expect(mailDomainOf('www.shop.nl')).toEqual({ domain: 'shop.nl', notApplicable: null });
    expect(mailDomainOf('winkel.shop.nl')).toEqual({ domain: 'shop.nl', notApplicable: null });
    expect(mailDomainOf('www.shop.co.uk')).toEqual({ domain: 'shop.co.uk', notApplicable: null });
    for (const host of ['mijn-app.lovable.app', 'shop.vercel.app', 'shop.webflow.io', 'x.netlify.app', 'me.github.io'])
      expect(mailDomainOf(host).notApplicable, host).toMatch(/platformdomein/);
    expect(mailDomainOf('127.0.0.1').notApplicable).toMatch(/IP-adres/);
  });
});

describe('mail scoring', () => {
  it('adds up as internet.nl does: the mail score is the truncated mean of the scored parts', () => {
    const report = reportOf(evidence({ dkim: 'absent' }));
    // auth: dmarc 10 + policy 10 + dkim 0 + spf 10 + spf_policy 10 of 50.
    expect(report.internetnl!.categories.auth.score).toBe(80);
    expect(report.internetnl!.categories.ipv6.score).toBe(100);
    expect(report.internetnl!.categories.dnssec.score).toBe(100);
    expect(report.internetnl!.score).toBe(Math.trunc((80 + 100 + 100) / 3));
  });

  it('scores the worst of the domain and its MX names for DNSSEC', () => {
    const e = evidence();
    e.mx[0]!.dnssec = { state: 'insecure', reason: null, extendedError: null };
    const report = reportOf(e);
    expect(report.internetnl!.categories.dnssec.score).toBe(20);
    expect(testOf(report, 'dnssec', 'dnssec_mx_exists').status).toBe('failed');
  });

  it('judges the SPF policy: +all, a broken include, and void look-ups past two', () => {
    const plusAll = reportOf(evidence({ spf: spfOf(node('shop.nl', 'v=spf1 mx +all')) }));
    expect(testOf(plusAll, 'auth', 'spf_policy')).toMatchObject({ status: 'failed' });
    expect(plusAll.internetnl!.categories.auth.score).toBe(84);
    const include = node('shop.nl', 'v=spf1 include:gone.example -all', {
      children: [node('gone.example', null, { problem: 'nxdomain' })],
      voids: ['include:gone.example'],
    });
    const broken = reportOf(evidence({ spf: spfOf(include) }));
    expect(testOf(broken, 'auth', 'spf_policy').detail).toMatch(
      /^include of redirect naar gone\.example: bestaat niet/,
    );
    const voids = node('shop.nl', 'v=spf1 a:x1.shop.nl a:x2.shop.nl mx:x3.shop.nl -all', {
      voids: ['a:x1.shop.nl', 'a:x2.shop.nl', 'mx:x3.shop.nl'],
    });
    const tooManyVoids = reportOf(evidence({ spf: spfOf(voids) }));
    expect(testOf(tooManyVoids, 'auth', 'spf_policy')).toMatchObject({ status: 'warning' });
    expect(testOf(tooManyVoids, 'auth', 'spf_policy').detail).toMatch(/3 look-ups zonder antwoord.*permerror/);
    // internet.nl does not check void look-ups: no points lost.
    expect(tooManyVoids.internetnl!.categories.auth.score).toBe(100);
  });

  it('follows a redirect for the final all, and counts the redirect as a look-up', () => {
    const tree = node('shop.nl', 'v=spf1 redirect=_spf.shop.nl', {
      children: [node('_spf.shop.nl', 'v=spf1 mx ~all')],
    });
    const report = reportOf(evidence({ spf: spfOf(tree) }));
    expect(testOf(report, 'auth', 'spf_policy')).toMatchObject({ status: 'passed' });
    expect(testOf(report, 'auth', 'spf_policy').detail).toMatch(/^beleid ~all, 2 DNS-look-ups/);
  });

  it('warns about a null MX beside other MX records', () => {
    const report = reportOf(evidence({ nullMxWithOthers: true }));
    expect(testOf(report, 'ipv6', 'mx_aaaa')).toMatchObject({ status: 'warning' });
  });

  it('shows DNS text sanitised: no control or invisible characters reach the report', () => {
    const report = reportOf(
      evidence({ dmarc: { ...evidence().dmarc, records: ['v=DMARC1; p=reject; x=\u202eevil\u0007'] } }),
    );
    const detail = testOf(report, 'auth', 'dmarc').detail;
    expect(['\u202e', '\u0007'].filter((ch) => detail.includes(ch))).toEqual([]);
    expect(detail).toMatch(/2 onzichtbare tekens verwijderd/);
  });
});

describe('the resolver', () => {
  it('asks every mail question of the one server SCANNER_DNS_SERVERS names', async () => {
    const server = await startDnsServer({ 'shop.example': { a: ['192.0.2.1'] } });
    try {
      const e = await probeMailDns('shop.example', {
        allowPrivateTargets: false,
        dnsServers: [server.address],
        dnssecProbeName: 'shop.example',
        timeoutMs: 1_000,
        signal: AbortSignal.timeout(20_000),
      });
      expect(e).toMatchObject({ error: null, mxStatus: 'no_mx' });
      for (const question of [
        'MX shop.example',
        'TXT shop.example',
        'TXT _dmarc.shop.example',
        'TXT _domainkey.shop.example',
        'TXT _mta-sts.shop.example',
        'TXT _smtp._tls.shop.example',
        'TXT default._bimi.shop.example',
      ])
        expect(server.questions).toContain(question);
    } finally {
      await server.close();
    }
  });
});
