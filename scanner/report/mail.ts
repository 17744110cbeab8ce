import type { FindingType } from '../catalog/index.ts';
import type { MailEvidence, SpfNode } from '../probes/mail-dns.ts';
import { MAIL_RECORD_FIXES, type MailRecordFix } from '../rules/mail-fixes.ts';
import {
  countsAsLookup,
  mxCoveredBy,
  parseDmarc,
  parseSpf,
  SPF_MAX_LOOKUPS,
  SPF_MAX_VOID_LOOKUPS,
  SPF_NON_SENDING,
  tlsRptTargetsOf,
} from '../rules/mail-records.ts';
import type { MailRun, SmtpAddressResult } from '../types.ts';
import type { MailCategory, MailStatus, MxStatus, SmtpState } from '../vocabulary.ts';
import { displayText } from './display-text.ts';
import {
  category,
  DNSSEC_DETAIL,
  FULL,
  LESS,
  meanScore,
  nsReach,
  rpkiPart,
  test,
  TLS_SUBTESTS,
  type InternetNlCategoryReport,
  type InternetNlStatus,
  type Scored,
} from './internetnl.ts';

// internet.nl's mail test, scored as internet.nl scores it (checks/categories.py, checks/tasks/mail.py,
// checks/scoring.py of internetstandards/Internet.nl at cec0e01): categories IPv6, DNSSEC, Auth, TLS
// and RPKI, each points over the maximum of its required subtests; the mail score the truncated mean.
// With several mail servers the worst decides (DomainServersModel.totalscore: the minimum).

export interface MailExtra {
  status: InternetNlStatus;
  detail: string;
}

export interface MailReport {
  domain: string;
  status: MailStatus;
  reason: string | null;
  mx_status: MxStatus | null;
  mx: Array<{ host: string; preference: number; addresses: string[] }>;
  internetnl: { score: number | null; categories: Record<MailCategory, InternetNlCategoryReport> } | null;
  extras: { mta_sts: MailExtra; tls_rpt: MailExtra; bimi: MailExtra };
  smtp: { state: SmtpState; reason: string | null; tested_at: string | null };
  /** The records to publish for what failed, filled in for the domain. */
  fixes: MailRecordFix[];
}

/** Record text from DNS is the site's: shown sanitised and bounded. */
const shown = (text: string, max = 300) => displayText(text, max);

// --- Auth

interface SpfCount {
  lookups: number;
  voids: number;
  /** internet.nl's count (tasks/mail.py spf_check_policy): `a:host`, ptr: and exists: inside words differ. */
  internetnl: number;
}

/** Look-ups over the whole tree, RFC 7208 section 4.6.4, and as internet.nl counts them. */
function countSpf(node: SpfNode): SpfCount {
  const terms = node.record ? (parseSpf(node.record) ?? []) : [];
  let internetnl = 0;
  for (const term of terms) {
    const t = term.text;
    if (
      t.startsWith('redirect') ||
      t.includes('include:') ||
      t.includes('mx') ||
      t.includes('ptr') ||
      t.includes('exists') ||
      t === 'a'
    )
      internetnl += 1;
    else if (t.endsWith('all') && t.length < 5) break;
  }
  const own = { lookups: terms.filter(countsAsLookup).length, voids: node.voids.length, internetnl };
  return node.children.map(countSpf).reduce(
    (sum, c) => ({
      lookups: sum.lookups + c.lookups,
      voids: sum.voids + c.voids,
      internetnl: sum.internetnl + c.internetnl,
    }),
    own,
  );
}

const PROBLEM_TEXT: Record<NonNullable<SpfNode['problem']>, string> = {
  nxdomain: 'bestaat niet (NXDOMAIN)',
  no_record: 'geen SPF-record',
  multiple: 'meer dan één SPF-record',
  dns_error: 'DNS-fout',
  syntax: 'ongeldige syntaxis',
  loop: 'kringverwijzing',
  not_followed: 'niet gevolgd (boom te groot)',
};

/** The include tree as indented lines: domain, record, own look-ups. */
function spfTreeText(node: SpfNode, depth = 0, lines: string[] = []): string[] {
  if (lines.length >= 40) return lines;
  const terms = node.record ? (parseSpf(node.record) ?? []) : [];
  const own = terms.filter(countsAsLookup).length;
  const what = node.problem ? PROBLEM_TEXT[node.problem] : `"${shown(node.record ?? '', 512)}" (${own} look-ups)`;
  lines.push(`${'  '.repeat(depth)}${node.domain}: ${what}`);
  for (const child of node.children) spfTreeText(child, depth + 1, lines);
  return lines;
}

/** The effective `all` of the top record, through a redirect when it has none. */
function finalAll(node: SpfNode): string | null {
  const terms = node.record ? (parseSpf(node.record) ?? []) : [];
  const all = terms.find((t) => t.kind === 'all');
  if (all) return `${all.qualifier}all`;
  const redirect = terms.find((t) => t.kind === 'redirect');
  const child = redirect ? node.children[node.children.length - 1] : undefined;
  return child ? finalAll(child) : null;
}

/** The first include or redirect in the tree that cannot be followed (RFC 7208: a permerror). */
function brokenChild(node: SpfNode): SpfNode | null {
  for (const child of node.children) {
    if (child.problem && child.problem !== 'not_followed') return child;
    const deeper = brokenChild(child);
    if (deeper) return deeper;
  }
  return null;
}

function spfTests(spf: MailEvidence['spf']): { tests: Scored[]; ok: boolean; record: string | null } {
  const notTested = test('spf_policy', 'not_tested', 'geen SPF-record om te beoordelen', 0, FULL);
  if (spf.error)
    return {
      tests: [test('spf', 'failed', `SPF niet op te vragen: ${spf.error}`, 0, FULL), notTested],
      ok: false,
      record: null,
    };
  if (spf.records.length !== 1)
    return {
      tests: [
        test(
          'spf',
          'failed',
          spf.records.length === 0
            ? 'geen SPF-record (v=spf1)'
            : `${spf.records.length} SPF-records; precies één is toegestaan: ${spf.records.map((r) => `"${shown(r, 150)}"`).join(', ')}`,
          0,
          FULL,
        ),
        notTested,
      ],
      ok: false,
      record: null,
    };
  const record = spf.records[0]!;
  const tree = spf.tree!;
  const found = test('spf', 'passed', `SPF-record: "${shown(record)}"`, FULL, FULL);
  if (!parseSpf(record))
    return {
      tests: [found, test('spf_policy', 'failed', 'het SPF-record heeft een ongeldige syntaxis', 0, FULL)],
      ok: false,
      record,
    };
  const count = countSpf(tree);
  const treeText = `\n${spfTreeText(tree).join('\n')}`;
  const theirs =
    count.internetnl !== count.lookups ? ` (internet.nl telt ${count.internetnl}: het telt a:-termen niet)` : '';
  const counted = `${count.lookups} DNS-look-ups${theirs}`;
  const broken = brokenChild(tree);
  const all = finalAll(tree);
  let policy: Scored;
  if (count.lookups > SPF_MAX_LOOKUPS)
    policy = test('spf_policy', 'failed', `permerror: ${counted}, meer dan ${SPF_MAX_LOOKUPS}${treeText}`, LESS, FULL);
  else if (broken)
    policy = test(
      'spf_policy',
      'failed',
      `include of redirect naar ${broken.domain}: ${PROBLEM_TEXT[broken.problem!]}${treeText}`,
      broken.problem === 'nxdomain' || broken.problem === 'dns_error' ? LESS : 0,
      FULL,
    );
  else if (all !== '-all' && all !== '~all')
    policy = test(
      'spf_policy',
      'failed',
      `het beleid eindigt niet op -all of ~all (${all ?? 'geen all'})${treeText}`,
      LESS,
      FULL,
    );
  else if (count.voids > SPF_MAX_VOID_LOOKUPS)
    // RFC 7208 makes this a permerror too; internet.nl does not check it, so it costs no points here.
    policy = test(
      'spf_policy',
      'warning',
      `${count.voids} look-ups zonder antwoord (void), meer dan ${SPF_MAX_VOID_LOOKUPS}: volgens RFC 7208 een permerror; ${counted}${treeText}`,
      FULL,
      FULL,
    );
  else policy = test('spf_policy', 'passed', `beleid ${all}, ${counted}${treeText}`, FULL, FULL);
  return { tests: [found, policy], ok: policy.status === 'passed', record };
}

const enforced = (policy: string | null) => policy === 'quarantine' || policy === 'reject';

function dmarcTests(dmarc: MailEvidence['dmarc'], domain: string) {
  const walk = dmarc.treeWalk;
  const foundAt = dmarc.records.length > 0 ? dmarc.at : null;
  const walkNote =
    walk.foundAt !== foundAt
      ? `; de DNS-boomwandeling van RFC 9989 (${walk.asked.length} vragen) vindt ${walk.foundAt ? `het beleid op _dmarc.${walk.foundAt}` : 'geen beleid'}, de publieke-suffixlijst ${foundAt ? `op _dmarc.${foundAt}` : 'geen'}`
      : '';
  const where = `_dmarc.${dmarc.at}${dmarc.orgDomain ? ' (organisatiedomein)' : ''}`;
  const notTested = test('dmarc_policy', 'not_tested', `geen DMARC-record om te beoordelen${walkNote}`, 0, FULL);
  if (dmarc.error)
    return {
      tests: [test('dmarc', 'failed', `DMARC niet op te vragen: ${dmarc.error}`, 0, FULL), notTested],
      parsed: null,
    };
  if (dmarc.records.length !== 1)
    return {
      tests: [
        test(
          'dmarc',
          'failed',
          dmarc.records.length === 0
            ? `geen DMARC-record op _dmarc.${domain}${dmarc.orgDomain ? ` of op het organisatiedomein _dmarc.${dmarc.at}` : ''}${walkNote}`
            : `${dmarc.records.length} DMARC-records op ${where}; precies één is toegestaan: ${dmarc.records.map((r) => `"${shown(r, 150)}"`).join(', ')}`,
          0,
          FULL,
        ),
        notTested,
      ],
      parsed: null,
    };
  const record = dmarc.records[0]!;
  const found = test('dmarc', 'passed', `DMARC-record op ${where}: "${shown(record)}"${walkNote}`, FULL, FULL);
  const parsed = parseDmarc(record);
  if (!parsed)
    return {
      tests: [found, test('dmarc_policy', 'failed', 'het DMARC-record heeft een ongeldige syntaxis', 0, FULL)],
      parsed,
    };
  // At the organisational domain sp= applies to the subdomain, else p= (dmarc_verify_sufficient_policy).
  const applied = dmarc.orgDomain ? (parsed.subdomainPolicy ?? parsed.policy) : parsed.policy;
  const tag = dmarc.orgDomain && parsed.subdomainPolicy ? 'sp' : 'p';
  let policy: Scored;
  if (!applied)
    policy = test('dmarc_policy', 'failed', `geen geldige ${tag}= (none, quarantine of reject)`, LESS, FULL);
  else if (applied === 'none' || (parsed.testing && applied === 'quarantine'))
    policy = test(
      'dmarc_policy',
      'failed',
      `${tag}=${applied}${parsed.testing ? ' met t=y' : ''}: ontvangers doen niets met mail die DMARC niet doorstaat`,
      LESS,
      FULL,
    );
  else {
    const unauthorised = dmarc.external.filter((e) => !e.authorised).map((e) => e.host);
    policy =
      unauthorised.length > 0
        ? test(
            'dmarc_policy',
            'warning',
            `${tag}=${applied}, maar rapportadres buiten het domein zonder toestemming: ${unauthorised.map((h) => `${dmarc.at}._report._dmarc.${h}`).join(', ')} ontbreekt`,
            FULL,
            FULL,
          )
        : test('dmarc_policy', 'passed', `${tag}=${applied}`, FULL, FULL);
  }
  return { tests: [found, policy], parsed };
}

function authTests(e: MailEvidence): Scored[] {
  const spf = spfTests(e.spf);
  const dmarc = dmarcTests(e.dmarc, e.domain);
  const policyOk = dmarc.tests[1]?.status === 'passed' || dmarc.tests[1]?.status === 'warning';
  // tasks/mail.py skip_dkim_for_non_sending_domain: DMARC p=reject (sp=reject at the organisational
  // domain) and SPF "-all" only: a domain that sends no mail needs no DKIM.
  const rejects = dmarc.parsed
    ? e.dmarc.orgDomain
      ? (dmarc.parsed.subdomainPolicy ?? dmarc.parsed.policy) === 'reject'
      : dmarc.parsed.policy === 'reject'
    : false;
  const nonSending = policyOk && rejects && spf.ok && spf.record !== null && SPF_NON_SENDING.test(spf.record.trim());
  const dkim =
    e.dkim === 'exists'
      ? test('dkim', 'passed', `_domainkey.${e.domain} bestaat: er zijn DKIM-sleutels`, FULL, FULL)
      : nonSending
        ? test(
            'dkim',
            'not_tested',
            'het domein verstuurt geen mail (DMARC p=reject en SPF -all): DKIM niet nodig',
            FULL,
            FULL,
          )
        : e.dkim === 'absent'
          ? test('dkim', 'failed', `_domainkey.${e.domain} bestaat niet (NXDOMAIN): geen DKIM`, 0, FULL)
          : test('dkim', 'failed', `_domainkey.${e.domain} niet op te vragen (DNS-fout)`, 0, FULL);
  return [dmarc.tests[0]!, dmarc.tests[1]!, dkim, ...spf.tests];
}

// --- IPv6, DNSSEC, RPKI

const NO_MAIL_SERVERS: Record<Exclude<MxStatus, 'has_mx'>, string> = {
  null_mx: 'null-MX: het domein ontvangt geen mail',
  no_mx: 'geen MX-records',
};

function ipv6Tests(e: MailEvidence, run: MailRun): Scored[] {
  const tests: Scored[] = [];
  if (e.nameServers) {
    const withAaaa = e.nameServers.filter((ns) => ns.addresses.length > 0);
    tests.push(
      test(
        'ns_aaaa',
        withAaaa.length >= 2 ? 'passed' : 'failed',
        `${withAaaa.length} van ${e.nameServers.length} nameservers met een IPv6-adres; minstens twee nodig`,
      ),
      nsReach(e.nameServers),
    );
  } else tests.push(test('ns_aaaa', 'not_tested', 'de nameservers zijn niet op te vragen'));
  if (e.mxStatus !== 'has_mx') {
    tests.push(
      test('mx_aaaa', 'not_tested', NO_MAIL_SERVERS[e.mxStatus]),
      test('mx_reach', 'not_tested', NO_MAIL_SERVERS[e.mxStatus]),
    );
    return tests;
  }
  const without = e.mx.filter((mx) => !mx.addresses.some((a) => a.includes(':'))).map((mx) => mx.host);
  tests.push(
    e.nullMxWithOthers
      ? // RFC 7505 section 3: a null MX stands alone (internet.nl: null-mx-with-other-mx, a notice).
        test('mx_aaaa', 'warning', 'een null-MX ("0 .") naast andere MX-records: RFC 7505 staat dat niet toe')
      : without.length === 0
        ? test('mx_aaaa', 'passed', 'elke mailserver heeft een IPv6-adres')
        : test('mx_aaaa', 'failed', `zonder IPv6-adres (AAAA): ${without.join(', ')}`),
  );
  // Reaching port 25 over IPv6 is the SMTP part's: without it the subtest is not tested and, like the
  // TLS category, not in the score (docs/scanner.md).
  const results = run.smtp.hosts.flatMap((h) => h.addresses).filter((a) => a.address.includes(':'));
  if (run.smtp.state !== 'tested' && run.smtp.state !== 'cached')
    tests.push(test('mx_reach', 'not_tested', run.smtp.reason ?? 'het SMTP-deel is niet getest'));
  else if (results.length === 0) tests.push(test('mx_reach', 'not_tested', 'geen IPv6-adres om te bereiken', 0, FULL));
  else {
    const unreachable = results.filter((r) => r.state === 'not_tested').map((r) => `${r.address} (${r.reason})`);
    tests.push(
      unreachable.length === 0
        ? test('mx_reach', 'passed', 'elke mailserver is via IPv6 bereikbaar op poort 25', FULL, FULL)
        : test('mx_reach', 'failed', `niet bereikbaar via IPv6: ${unreachable.join(', ')}`, 0, FULL),
    );
  }
  return tests;
}

type Dnssec = MailEvidence['dnssec'];
const DNSSEC_POINTS: Record<Dnssec['state'], number> = {
  secure: FULL,
  insecure: LESS,
  bogus: 0,
  error: 0,
  not_tested: 0,
};

function dnssecTests(e: MailEvidence): { tests: Scored[]; score: number | null } {
  const verdict = (d: Dnssec) =>
    d.state === 'secure' || d.state === 'insecure' || d.state === 'bogus'
      ? DNSSEC_DETAIL[d.state]
      : (d.reason ?? 'DNS-fout');
  const status = (d: Dnssec): InternetNlStatus =>
    d.state === 'secure'
      ? 'passed'
      : d.state === 'insecure'
        ? 'not_tested'
        : d.state === 'not_tested'
          ? 'not_tested'
          : 'failed';
  const d = e.dnssec;
  const tests = [
    test('dnssec_exists', d.state === 'secure' || d.state === 'bogus' ? 'passed' : 'failed', verdict(d)),
    test('dnssec_valid', d.state === 'insecure' ? 'not_tested' : status(d), verdict(d), DNSSEC_POINTS[d.state], FULL),
  ];
  if (d.state === 'not_tested') return { tests: [test('dnssec_valid', 'not_tested', verdict(d))], score: null };
  // Each domain (the mail domain and every MX name) is scored apart; the category is the worst (DomainServersModel).
  const names = [{ name: e.domain, dnssec: d }, ...e.mx.map((mx) => ({ name: mx.host, dnssec: mx.dnssec }))];
  if (e.mxStatus === 'has_mx') {
    const unsigned = e.mx.filter((mx) => mx.dnssec.state !== 'secure' && mx.dnssec.state !== 'bogus');
    const bad = e.mx.filter((mx) => mx.dnssec.state === 'bogus' || mx.dnssec.state === 'error');
    tests.push(
      unsigned.length === 0
        ? test('dnssec_mx_exists', 'passed', 'de domeinnamen van alle mailservers zijn ondertekend')
        : test('dnssec_mx_exists', 'failed', `niet ondertekend: ${unsigned.map((mx) => mx.host).join(', ')}`),
      bad.length > 0
        ? test(
            'dnssec_mx_valid',
            'failed',
            `ongeldig: ${bad.map((mx) => `${mx.host} (${verdict(mx.dnssec)})`).join(', ')}`,
          )
        : unsigned.length > 0
          ? test('dnssec_mx_valid', 'not_tested', `niet ondertekend: ${unsigned.map((mx) => mx.host).join(', ')}`)
          : test('dnssec_mx_valid', 'passed', 'de handtekeningen van alle mailserverdomeinen kloppen'),
    );
  } else
    tests.push(
      test('dnssec_mx_exists', 'not_tested', NO_MAIL_SERVERS[e.mxStatus]),
      test('dnssec_mx_valid', 'not_tested', NO_MAIL_SERVERS[e.mxStatus]),
    );
  const worst = Math.min(...names.map((n) => DNSSEC_POINTS[n.dnssec.state]));
  return { tests, score: Math.trunc((100 * worst) / FULL) };
}

function rpkiTests(e: MailEvidence): Scored[] {
  if (e.rpki.state === 'not_tested') return [test('rpki', 'not_tested', e.rpki.reason)];
  return [...rpkiPart('mx', e.rpki.mx), ...rpkiPart('mx_ns', e.rpki.nameServers)];
}

// --- TLS (the SMTP part)

/** internet.nl's mail exceptions: phase-out versions score full (MAIL_TLS_PROTOCOLS_OK). */
const PHASE_OUT: ReadonlySet<FindingType> = new Set(['tls_1_0_supported', 'tls_1_1_supported']);
/** Web-only subtests, and those that are a notice or information for mail (kex_hash_func, client renegotiation). */
const NOT_FOR_MAIL = new Set(['https_forced', 'hsts', 'caa']);
const INFORMATIONAL_FOR_MAIL = new Set(['kex_hash_function', 'client_renegotiation']);
/** Trust and host match count only where a DANE-TA (usage 2) record says a CA must be trusted. */
const PKIX_ONLY = new Set(['cert_trust', 'cert_hostmatch']);

function addressTlsTests(r: SmtpAddressResult, daneTa: boolean, hasTlsa: boolean): Scored[] {
  if (r.state === 'no_starttls') return [test('starttls_exists', 'failed', `${r.address}: ${r.reason}`, 0, FULL)];
  const failing = new Set(r.failing);
  const tests: Scored[] = [test('starttls_exists', 'passed', `${r.address}: STARTTLS`, FULL, FULL)];
  for (const sub of TLS_SUBTESTS) {
    if (NOT_FOR_MAIL.has(sub.name)) continue;
    const max = INFORMATIONAL_FOR_MAIL.has(sub.name) || (PKIX_ONLY.has(sub.name) && !daneTa) ? 0 : sub.max;
    const found = sub.fails.filter((type) => failing.has(type));
    const hard = found.filter((type) => !PHASE_OUT.has(type));
    tests.push(
      hard.length > 0
        ? test(sub.name, max === 0 ? 'warning' : 'failed', `${r.address}: ${sub.label}: ${hard.join(', ')}`, 0, max)
        : found.length > 0
          ? test(sub.name, 'warning', `${r.address}: ${sub.label}: uit te faseren (${found.join(', ')})`, max, max)
          : test(sub.name, 'passed', `${r.address}: ${sub.label}: in orde`, max, max),
    );
  }
  tests.push(
    r.zeroRtt === true
      ? test('zero_rtt', 'failed', `${r.address}: de server biedt 0-RTT aan`, 0, FULL)
      : test('zero_rtt', 'passed', `${r.address}: geen 0-RTT`, FULL, FULL),
  );
  // DANE is required for mail (MAIL_TLS_DANE_*): no TLSA record costs both subtests.
  tests.push(
    hasTlsa
      ? test('dane_exists', 'passed', `${r.address}: TLSA-records op poort 25`, FULL, FULL)
      : test('dane_exists', 'failed', `${r.address}: geen (geldig ondertekende) TLSA-records op poort 25`, 0, FULL),
    r.dane === true
      ? test('dane_valid', 'passed', `${r.address}: een TLSA-record past bij de keten`, FULL, FULL)
      : r.dane === false
        ? test('dane_valid', 'failed', `${r.address}: geen TLSA-record (gebruik 2 of 3) past bij de keten`, 0, FULL)
        : test('dane_valid', 'not_tested', `${r.address}: geen TLSA-records om te vergelijken`, 0, FULL),
  );
  return tests;
}

const RANK: Record<InternetNlStatus, number> = { error: 0, failed: 1, warning: 2, not_tested: 3, passed: 4 };

/**
 * One row per subtest: the worst address's, its detail naming that address; when every address has
 * the same verdict, the detail names them all.
 */
function worstPerSubtest(perAddress: Array<{ address: string; tests: Scored[] }>): Scored[] {
  const rows = new Map<string, Scored>();
  const alike = new Map<string, boolean>();
  const worse = (t: Scored, kept: Scored) =>
    RANK[t.status] < RANK[kept.status] || (RANK[t.status] === RANK[kept.status] && t.points < kept.points);
  for (const { tests } of perAddress)
    for (const t of tests) {
      const kept = rows.get(t.name);
      alike.set(t.name, !kept || (alike.get(t.name) === true && kept.status === t.status && kept.points === t.points));
      if (!kept || worse(t, kept)) rows.set(t.name, t);
    }
  const all = perAddress.map((a) => a.address).join(', ');
  return [...rows.values()].map((t) =>
    alike.get(t.name) && perAddress.length > 1 ? { ...t, detail: t.detail.replace(/^\S+: /, `${all}: `) } : t,
  );
}

function tlsTests(e: MailEvidence, run: MailRun): { tests: Scored[]; score: number | null } {
  if (e.mxStatus !== 'has_mx')
    return { tests: [test('starttls_exists', 'not_tested', NO_MAIL_SERVERS[e.mxStatus])], score: null };
  if (run.smtp.state !== 'tested' && run.smtp.state !== 'cached')
    return {
      tests: [test('starttls_exists', 'not_tested', run.smtp.reason ?? 'het SMTP-deel is niet getest')],
      score: null,
    };
  const perAddress: Array<{ address: string; tests: Scored[] }> = [];
  const untested: string[] = [];
  for (const mx of e.mx) {
    const host = run.smtp.hosts.find((h) => h.host === mx.host);
    const usable = mx.tlsa.secure && !mx.tlsa.bogus;
    const daneTa = usable && mx.tlsa.records.some((r) => r.startsWith('2 '));
    for (const r of host?.addresses ?? []) {
      if (r.state === 'not_tested') untested.push(`${mx.host} ${r.address}: ${r.reason}`);
      else
        perAddress.push({
          address: r.address,
          tests: addressTlsTests(r, daneTa, usable && mx.tlsa.records.length > 0),
        });
    }
  }
  if (perAddress.length === 0)
    return {
      tests: [test('starttls_exists', 'not_tested', `niet te testen: ${untested.join('; ') || 'geen adressen'}`)],
      score: null,
    };
  const tests = worstPerSubtest(perAddress);
  if (untested.length > 0) tests.push(test('smtp_not_tested', 'not_tested', `niet te testen: ${untested.join('; ')}`));
  tests.push(test('ocsp_stapling', 'not_tested', 'OCSP-stapling wordt niet getest'));
  const scoreOf = (ts: Scored[]) => {
    const max = ts.reduce((sum, t) => sum + t.max, 0);
    return max > 0 ? Math.trunc((100 * ts.reduce((sum, t) => sum + t.points, 0)) / max) : 0;
  };
  return { tests, score: Math.min(...perAddress.map((a) => scoreOf(a.tests))) };
}

// --- extras (what internet.nl leaves out)

function mtaStsExtra(e: MailEvidence): MailExtra {
  const m = e.mtaSts;
  if (m.records.length === 0) return { status: 'not_tested', detail: `geen MTA-STS-record op _mta-sts.${e.domain}` };
  if (m.records.length > 1)
    return { status: 'failed', detail: `${m.records.length} MTA-STS-records; precies één is toegestaan` };
  if (!m.id) return { status: 'failed', detail: 'het MTA-STS-record heeft geen geldige id=' };
  if (!m.policy) return { status: 'failed', detail: `het beleid is niet bruikbaar: ${m.problems.join('; ')}` };
  const uncovered = e.mx.filter((mx) => !mxCoveredBy(mx.host, m.policy!.mx)).map((mx) => mx.host);
  const patterns = m.policy.mx.join(', ') || 'geen';
  if (m.policy.mode === 'enforce' && uncovered.length > 0)
    return {
      status: 'error',
      detail: `mode enforce, maar geen mx-regel dekt ${uncovered.join(', ')} (patronen: ${patterns}): MTA-STS-verzenders bezorgen daar niet`,
    };
  if (m.policy.mode !== 'enforce')
    return {
      status: 'warning',
      detail: `mode ${m.policy.mode}: verzenders dwingen TLS nog niet af (patronen: ${patterns})`,
    };
  return { status: 'passed', detail: `mode enforce, max_age ${m.policy.maxAge}, mx: ${patterns}` };
}

function tlsRptExtra(e: MailEvidence): MailExtra {
  const records = e.tlsRpt.records;
  const usesTlsSecurity = e.mtaSts.records.length > 0 || e.mx.some((mx) => mx.tlsa.records.length > 0);
  if (records.length === 0)
    return usesTlsSecurity
      ? {
          status: 'warning',
          detail: `MTA-STS of DANE zonder TLS-RPT op _smtp._tls.${e.domain}: fouten blijven onopgemerkt`,
        }
      : { status: 'not_tested', detail: `geen TLS-RPT-record op _smtp._tls.${e.domain}` };
  if (records.length > 1)
    return { status: 'failed', detail: `${records.length} TLS-RPT-records; precies één is toegestaan` };
  const parsed = tlsRptTargetsOf(records[0]!);
  if (!parsed || parsed.targets.length === 0) return { status: 'failed', detail: 'het TLS-RPT-record heeft geen rua=' };
  if (parsed.bad.length > 0)
    return {
      status: 'failed',
      detail: `rua= alleen mailto: of https:, niet: ${parsed.bad.map((b) => shown(b, 100)).join(', ')}`,
    };
  return { status: 'passed', detail: `rapporten naar ${parsed.targets.map((t) => shown(t, 100)).join(', ')}` };
}

function bimiExtra(e: MailEvidence): MailExtra {
  if (e.bimi.records.length === 0) return { status: 'not_tested', detail: 'geen BIMI-record (informatief)' };
  const dmarc = e.dmarc.records.length === 1 ? parseDmarc(e.dmarc.records[0]!) : null;
  const allows = dmarc !== null && enforced(dmarc.policy) && (dmarc.tags.pct ?? '100') === '100';
  return allows
    ? { status: 'passed', detail: 'BIMI-record aanwezig; het DMARC-beleid staat het toe (informatief)' }
    : {
        status: 'warning',
        detail:
          'BIMI-record aanwezig, maar DMARC is niet quarantine of reject voor alle mail: ontvangers tonen het logo niet',
      };
}

// --- the whole

function fixesOf(
  e: MailEvidence,
  categories: Record<MailCategory, InternetNlCategoryReport>,
  extras: MailReport['extras'],
) {
  const d = { domain: e.domain, mx: e.mx.map((mx) => mx.host) };
  const failing = new Set(
    categories.auth.tests.filter((t) => t.status === 'failed' || t.status === 'not_tested').map((t) => t.name),
  );
  const rows: MailRecordFix[] = [];
  if (failing.has('spf')) rows.push(...MAIL_RECORD_FIXES.spf(d));
  else if (failing.has('spf_policy')) rows.push(...MAIL_RECORD_FIXES.spf_policy(d));
  if (failing.has('dmarc')) rows.push(...MAIL_RECORD_FIXES.dmarc(d));
  else if (failing.has('dmarc_policy')) rows.push(...MAIL_RECORD_FIXES.dmarc_policy(d));
  if (e.mxStatus === 'has_mx' && extras.mta_sts.status !== 'passed') rows.push(...MAIL_RECORD_FIXES.mta_sts(d));
  if (e.mxStatus === 'has_mx' && extras.tls_rpt.status !== 'passed') rows.push(...MAIL_RECORD_FIXES.tls_rpt(d));
  return rows;
}

const NO_EXTRAS: MailReport['extras'] = {
  mta_sts: { status: 'not_tested', detail: 'niet getest' },
  tls_rpt: { status: 'not_tested', detail: 'niet getest' },
  bimi: { status: 'not_tested', detail: 'niet getest' },
};

/** The mail section of a scan from what was stored; null when the mail test is off for the site. */
export function mailReport(run: MailRun | null): MailReport | null {
  if (!run) return null;
  // Reasons can carry a server's own words (a greeting): shown sanitised like every detail.
  const shownReason = (reason: string | null) => (reason === null ? null : displayText(reason, 500));
  // When the oldest MX result was tested (a cached one may predate the scan); null before any was.
  const testedAt = run.smtp.hosts.map((h) => h.testedAt).sort()[0] ?? null;
  const smtp = { state: run.smtp.state, reason: shownReason(run.smtp.reason), tested_at: testedAt };
  const e = run.evidence;
  const base = { domain: displayText(run.domain, 255), status: run.status, reason: shownReason(run.reason), smtp };
  if (!e || run.status !== 'tested')
    return { ...base, mx_status: e?.mxStatus ?? null, mx: [], internetnl: null, extras: NO_EXTRAS, fixes: [] };
  const dnssec = dnssecTests(e);
  const tls = tlsTests(e, run);
  const categories: Record<MailCategory, InternetNlCategoryReport> = {
    ipv6: category(ipv6Tests(e, run)),
    dnssec: { ...category(dnssec.tests), score: dnssec.score },
    auth: category(authTests(e)),
    tls: { ...category(tls.tests), score: tls.score },
    rpki: category(rpkiTests(e)),
  };
  const extras = { mta_sts: mtaStsExtra(e), tls_rpt: tlsRptExtra(e), bimi: bimiExtra(e) };
  // Every text that carries DNS or server data is shown sanitised and bounded.
  const safe = <T extends { detail: string }>(t: T): T => ({ ...t, detail: displayText(t.detail) });
  for (const c of Object.values(categories)) c.tests = c.tests.map(safe);
  return {
    ...base,
    mx_status: e.mxStatus,
    mx: e.mx.map((mx) => ({ host: displayText(mx.host, 255), preference: mx.preference, addresses: mx.addresses })),
    internetnl: { score: meanScore(Object.values(categories)), categories },
    extras: { mta_sts: safe(extras.mta_sts), tls_rpt: safe(extras.tls_rpt), bimi: safe(extras.bimi) },
    fixes: fixesOf(e, categories, extras).map((fix) => ({ ...fix, name: displayText(fix.name, 300) })),
  };
}
