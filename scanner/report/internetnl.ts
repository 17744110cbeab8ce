import type { FindingType } from '../catalog/index.ts';
import { INSUFFICIENT_CIPHER_FINDINGS } from '../catalog/ssl-tls.ts';
import type { InternetNlEvidence } from '../probes/internetnl.ts';
import type { RpkiRoute } from '../probes/rpki.ts';
import type { AddressEvidence } from '../types.ts';
import { INTERNETNL_HSTS_MIN_MAX_AGE } from '../rules/hsts.ts';
import type { InternetNlCategory } from '../vocabulary.ts';

// internet.nl's website test, scored as internet.nl scores it (checks/scoring.py, checks/categories.py
// and checks/probes.py of internetstandards/Internet.nl at cec0e01): each subtest gives full (10),
// partial (5 or 2) or no points; a category's score is its points over the maximum of its required
// subtests, truncated (Probe.get_scores_and_verdict: int(100.0 / max_score * total)); the website
// score is the truncated mean of the categories with a required subtest (ProbeSet.count_probe_reports_score).

export const INTERNETNL_STATUSES = ['passed', 'warning', 'failed', 'not_tested', 'error'] as const;
export type InternetNlStatus = (typeof INTERNETNL_STATUSES)[number];

export interface InternetNlTest {
  name: string;
  status: InternetNlStatus;
  detail: string;
}

export interface InternetNlCategoryReport {
  status: InternetNlStatus;
  score: number | null;
  tests: InternetNlTest[];
}

export interface InternetNlReport {
  score: number | null;
  categories: Record<InternetNlCategory, InternetNlCategoryReport>;
}

/** The truncated mean of the categories that have a score (ProbeSet.count_probe_reports_score). */
export function meanScore(categories: readonly InternetNlCategoryReport[]): number | null {
  const scores = categories.flatMap((c) => (c.score === null ? [] : [c.score]));
  return scores.length > 0 ? Math.trunc(scores.reduce((sum, s) => sum + s, 0) / scores.length) : null;
}

/** A subtest's verdict with its points out of `max` (max 0: informational, not in the score). */
export interface Scored extends InternetNlTest {
  points: number;
  max: number;
}

export const FULL = 10;
export const HALF = 5;
export const LESS = 2;

export const test = (name: string, status: InternetNlStatus, detail: string, points = 0, max = 0): Scored => ({
  name,
  status,
  detail,
  points,
  max,
});

/**
 * A category's verdict and score as internet.nl's Probe._verdict and get_scores_and_verdict give them:
 * any error makes it an error, else any failed subtest (scored or not) fails it; notices and
 * information (our `warning` on a subtest without points) change the verdict only of a category
 * without required subtests. The score truncates.
 */
export function category(tests: Scored[]): InternetNlCategoryReport {
  const shown = tests.map(({ name, status, detail }) => ({ name, status, detail }));
  if (tests.every((t) => t.status === 'not_tested')) return { status: 'not_tested', score: null, tests: shown };
  const max = tests.reduce((sum, t) => sum + t.max, 0);
  const score = max > 0 ? Math.trunc((100 * tests.reduce((sum, t) => sum + t.points, 0)) / max) : null;
  const status: InternetNlStatus = tests.some((t) => t.status === 'error')
    ? 'error'
    : tests.some((t) => t.status === 'failed')
      ? 'failed'
      : max === 0 && tests.some((t) => t.status === 'warning')
        ? 'warning'
        : 'passed';
  return { status, score, tests: shown };
}

type NameServer = NonNullable<InternetNlEvidence['ipv6']['nameServers']>[number];

/**
 * ns_reach as internet.nl's tasks/ipv6.py do_ns scores it: each name server 10 (every IPv6 address
 * answers), 2 (some) or 0; IPv4-only name servers and those without addresses are left out once at
 * least two have an AAAA; one name server gets at most 5; else the mean, truncated. Any unreachable
 * IPv6 address fails the subtest (callback: result_bad).
 */
export function nsReach(all: NameServer[]): Scored {
  const withAaaa = all.filter((ns) => ns.addresses.length > 0);
  const addresses = withAaaa.reduce((n, ns) => n + ns.addresses.length, 0);
  const reachable = withAaaa.reduce((n, ns) => n + ns.reachable.length, 0);
  const considered = withAaaa.length > 1 ? withAaaa : all;
  const sum = considered.reduce(
    (total, ns) => total + (ns.reachable.length === 0 ? 0 : ns.reachable.length < ns.addresses.length ? LESS : FULL),
    0,
  );
  const points = Math.trunc(
    considered.length === 1 ? Math.min(HALF, sum) : considered.length > 1 ? sum / considered.length : 0,
  );
  if (withAaaa.length === 0) return test('ns_reach', 'not_tested', 'geen nameserver met een IPv6-adres', 0, FULL);
  return reachable === addresses
    ? test(
        'ns_reach',
        'passed',
        `alle IPv6-adressen van de nameservers zijn bereikbaar (${points} punten)`,
        points,
        FULL,
      )
    : test(
        'ns_reach',
        'failed',
        `${reachable} van ${addresses} IPv6-adressen bereikbaar (${points} punten)`,
        points,
        FULL,
      );
}

type Web = InternetNlEvidence['ipv6']['web'];

/**
 * web_reach as tasks/ipv6.py get_domain_results scores it and callback shows it: 10 points when
 * every IPv6 address answers on 80 or 443 and IPv6 answers on every port IPv4 does; 2 when some
 * address does not answer or a port answers over IPv4 only; 0 when no IPv6 address answers. The
 * status fails only on an unreachable address: a port that answers over IPv4 only costs points,
 * not the verdict (it fails web_ipv46 instead).
 */
function webReach(web: Web): Scored {
  const points = web.v6Good.length === 0 ? 0 : web.v6Bad.length > 0 || web.portDiff.length > 0 ? LESS : FULL;
  const ports = web.portDiff.length > 0 ? `; poort ${web.portDiff.join(' en ')} alleen via IPv4` : '';
  return web.v6Bad.length > 0
    ? test(
        'web_reach',
        'failed',
        `niet bereikbaar via IPv6 op poort 80 of 443: ${web.v6Bad.join(', ')}${ports}`,
        points,
        FULL,
      )
    : test('web_reach', 'passed', `elk IPv6-adres is bereikbaar (${web.v6Good.join(', ')})${ports}`, points, FULL);
}

/**
 * web_ipv46 as internet.nl's tasks/ipv6.py do_web, simhash and callback give it, quirks included:
 * - an IPv6-only site is not compared, and gets the subtest's 2 points (result_no_v4);
 * - no comparison (IPv4 unreachable, a port that answers over one family only, or no answer over
 *   one family) fails with 0;
 * - another status per family scores 2 but shows failed (the distance stays "not calculable");
 * - the same page (at most 10% apart by quick_ratio) scores 2: passed for status 200 to 400, a notice
 *   for the same 4xx/5xx on both families;
 * - pages more than 10% apart are a notice with 0 points;
 * - without an IPv6 address that answers the subtest is not set: not tested, 0 points.
 */
function webIpv46(web: Web, same: InternetNlEvidence['ipv6']['sameContent']): Scored {
  if (web.v6Good.length === 0)
    return test('web_ipv46', 'not_tested', 'niet vergeleken: de site is niet via IPv6 bereikbaar', 0, LESS);
  if (web.v4Good.length === 0 && web.v4Bad.length === 0)
    return test('web_ipv46', 'not_tested', 'alleen IPv6: niets te vergelijken', LESS, LESS);
  if (web.portDiff.length > 0)
    return test('web_ipv46', 'failed', `poort ${web.portDiff.join(' en ')} antwoordt alleen via IPv4`, 0, LESS);
  if (!same) return test('web_ipv46', 'failed', 'niet vergeleken: de site antwoordt niet via IPv4 én IPv6', 0, LESS);
  if (same.v4Ports.join() !== same.v6Ports.join())
    return test(
      'web_ipv46',
      'failed',
      `de pagina komt via IPv4 van poort ${same.v4Ports.join(' en ')}, via IPv6 van poort ${same.v6Ports.join(' en ') || 'geen'}`,
      0,
      LESS,
    );
  if (same.v4Status !== same.v6Status)
    return test('web_ipv46', 'failed', `statuscode via IPv4 ${same.v4Status}, via IPv6 ${same.v6Status}`, LESS, LESS);
  const alike = `${Math.trunc(same.similarity * 100)}% gelijk`;
  if (same.similarity < 0.9)
    return test(
      'web_ipv46',
      'warning',
      `de pagina verschilt tussen IPv4 en IPv6 (${alike}, minstens 90% nodig)`,
      0,
      LESS,
    );
  return same.v4Status >= 200 && same.v4Status <= 400
    ? test('web_ipv46', 'passed', `dezelfde pagina via IPv4 en IPv6 (${alike})`, LESS, LESS)
    : test('web_ipv46', 'warning', `dezelfde pagina, maar statuscode ${same.v4Status} via beide`, LESS, LESS);
}

function ipv6Tests(ipv6: InternetNlEvidence['ipv6']): Scored[] {
  if (ipv6.nameServers === null) return [test('web_aaaa', 'not_tested', ipv6.error ?? 'niet getest')];
  const withAaaa = ipv6.nameServers.filter((ns) => ns.addresses.length > 0);
  const nsList = withAaaa.map((ns) => ns.name).join(', ') || 'geen';
  const tests = [
    test(
      'ns_aaaa',
      withAaaa.length >= 2 ? 'passed' : 'failed',
      `${withAaaa.length} van ${ipv6.nameServers.length} nameservers met een IPv6-adres (${nsList}); minstens twee nodig`,
    ),
    nsReach(ipv6.nameServers),
    test(
      'web_aaaa',
      ipv6.webAddresses.length > 0 ? 'passed' : 'failed',
      ipv6.webAddresses.length > 0
        ? `IPv6-adres: ${ipv6.webAddresses.join(', ')}`
        : 'de webserver heeft geen IPv6-adres (AAAA)',
    ),
  ];
  // Without an AAAA internet.nl sets neither web_reach nor web_ipv46: both stay in the maximum with 0 points.
  if (ipv6.webAddresses.length === 0) {
    tests.push(test('web_reach', 'not_tested', 'geen IPv6-adres om te bereiken', 0, FULL));
    tests.push(test('web_ipv46', 'not_tested', 'niet vergeleken: geen IPv6-adres', 0, LESS));
    return tests;
  }
  tests.push(webReach(ipv6.web), webIpv46(ipv6.web, ipv6.sameContent));
  return tests;
}

export const DNSSEC_DETAIL = {
  secure: 'de domeinnaam is ondertekend en de handtekeningen kloppen',
  insecure: 'de domeinnaam is niet ondertekend met DNSSEC',
  bogus: 'de handtekeningen kloppen niet: validerende resolvers geven geen antwoord (bogus)',
} as const;

function dnssecTests(dnssec: InternetNlEvidence['dnssec']): Scored[] {
  const ede = dnssec.extendedError
    ? ` (EDE ${dnssec.extendedError.code}${dnssec.extendedError.text ? `: ${dnssec.extendedError.text}` : ''})`
    : '';
  switch (dnssec.state) {
    case 'secure':
      return [
        test('dnssec_exists', 'passed', DNSSEC_DETAIL.secure),
        test('dnssec_valid', 'passed', DNSSEC_DETAIL.secure, FULL, FULL),
      ];
    // internet.nl's WebDnssecValid.result_insecure, result_servfail and result_resolver_error set no
    // status: the subtest shows as not tested, with the score of the zone (2 insecure, 0 on an error).
    case 'insecure':
      return [
        test('dnssec_exists', 'failed', DNSSEC_DETAIL.insecure),
        test('dnssec_valid', 'not_tested', DNSSEC_DETAIL.insecure, LESS, FULL),
      ];
    case 'bogus':
      return [
        test('dnssec_exists', 'passed', 'de domeinnaam is ondertekend'),
        test('dnssec_valid', 'failed', `${DNSSEC_DETAIL.bogus}${ede}`, 0, FULL),
      ];
    case 'error':
      // A SERVFAIL or resolver error fails dnssec_exists and scores 0 (tasks/dnssec.py).
      return [
        test('dnssec_exists', 'failed', `niet vast te stellen of de domeinnaam is ondertekend${ede}`),
        test('dnssec_valid', 'not_tested', `${dnssec.reason ?? 'DNS-fout'}${ede}`, 0, FULL),
      ];
    default:
      return [test('dnssec_valid', 'not_tested', dnssec.reason ?? 'niet getest')];
  }
}

/** internet.nl's HTTPS subtests, each judged by the findings of our own checks that fail it. */
export const TLS_SUBTESTS: Array<{ name: string; label: string; fails: FindingType[]; max: number }> = [
  {
    name: 'https_forced',
    label: 'HTTP stuurt door naar HTTPS',
    max: FULL,
    // internet.nl wants the first redirect to stay on the host: https on the same name (tasks/tls/http.py forced_http_check).
    fails: [
      'http_no_redirect_to_https',
      'http_redirect_not_to_https',
      'http_redirect_initial_not_https',
      'http_redirect_off_host',
    ],
  },
  {
    name: 'hsts',
    label: 'HSTS',
    max: FULL,
    fails: ['hsts_missing', 'hsts_invalid', 'hsts_ignored_invalid_certificate'],
  },
  {
    name: 'tls_version',
    label: 'TLS-versies',
    max: FULL,
    fails: ['tls_modern_protocols_missing', 'tls_1_0_supported', 'tls_1_1_supported'],
  },
  {
    name: 'cipher_suites',
    label: 'Ciphers',
    max: FULL,
    fails: [...INSUFFICIENT_CIPHER_FINDINGS],
  },
  {
    name: 'cipher_order',
    label: 'Cipher-volgorde',
    max: FULL,
    fails: ['tls_cipher_order_missing', 'tls_cipher_order_weak_first'],
  },
  {
    name: 'key_exchange',
    label: 'Sleuteluitwisselingsparameters',
    max: FULL,
    fails: ['tls_dh_group_insufficient', 'tls_curve_insufficient', 'tls_no_forward_secrecy'],
  },
  {
    name: 'kex_hash_function',
    label: 'Hashfunctie voor sleuteluitwisseling',
    max: FULL,
    fails: ['tls_key_exchange_hash_insufficient'],
  },
  { name: 'tls_compression', label: 'TLS-compressie', max: FULL, fails: ['tls_compression_enabled'] },
  {
    name: 'secure_renegotiation',
    label: 'Veilige heronderhandeling',
    max: FULL,
    fails: ['tls_secure_renegotiation_missing'],
  },
  {
    name: 'client_renegotiation',
    label: 'Client-geïnitieerde heronderhandeling',
    max: 0,
    fails: ['tls_client_renegotiation_allowed'],
  },
  {
    name: 'extended_master_secret',
    label: 'Extended Master Secret',
    max: FULL,
    fails: ['tls_extended_master_secret_missing'],
  },
  {
    name: 'cert_trust',
    label: 'Vertrouwensketen van certificaat',
    max: FULL,
    fails: [
      'tls_certificate_self_signed',
      'tls_certificate_untrusted',
      'tls_certificate_chain_incomplete',
      'tls_certificate_expired',
      'tls_certificate_not_yet_valid',
      'tls_intermediate_certificate_expired',
    ],
  },
  {
    name: 'cert_pubkey',
    label: 'Publieke sleutel van certificaat',
    max: FULL,
    fails: ['tls_certificate_weak_key', 'tls_certificate_broken_key'],
  },
  {
    name: 'cert_signature',
    label: 'Handtekening van certificaat',
    max: FULL,
    fails: ['tls_certificate_weak_signature'],
  },
  {
    name: 'cert_hostmatch',
    label: 'Domeinnaam op certificaat',
    max: FULL,
    fails: ['tls_certificate_hostname_mismatch', 'tls_certificate_no_subject_alt_name'],
  },
  { name: 'caa', label: 'CAA voor domein', max: 0, fails: ['caa_missing'] },
];

/** What the report reads from the scan besides the findings. */
export interface InternetNlSiteFacts {
  /** The HSTS max-age sent over HTTPS; null without a valid header. */
  hstsMaxAge: number | null;
  /** The TLS 1.3 session ticket allows early data (0-RTT); null when not tried. */
  zeroRtt: boolean | null;
  /** Every address of the entered name, judged apart: http's first redirect and HSTS at each. */
  addresses: ReadonlyArray<Pick<AddressEvidence, 'address' | 'forcedHttps' | 'hstsMaxAge'>>;
}

/** What each address adds to a subtest's failures (internet.nl keeps the worst address). */
function addressFailures(name: string, addresses: InternetNlSiteFacts['addresses']): string[] {
  if (name === 'https_forced')
    return addresses.flatMap(({ address, forcedHttps }) =>
      forcedHttps === 'bad'
        ? [`${address}: de eerste doorverwijzing gaat niet naar https op dezelfde naam`]
        : forcedHttps === 'no_https'
          ? [`${address}: geen HTTPS`]
          : [],
    );
  if (name === 'hsts')
    return addresses.flatMap(({ address, forcedHttps, hstsMaxAge }) =>
      forcedHttps !== 'no_https' && hstsMaxAge === null ? [`${address}: geen geldige HSTS`] : [],
    );
  return [];
}

function tlsTests(
  found: ReadonlySet<FindingType>,
  dane: InternetNlEvidence['dane'],
  site: InternetNlSiteFacts,
): Scored[] {
  if (found.has('https_unavailable'))
    return [test('https_exists', 'failed', 'de site is niet via HTTPS bereikbaar', 0, FULL)];
  const tests: Scored[] = [test('https_exists', 'passed', 'de site is via HTTPS bereikbaar')];
  for (const sub of TLS_SUBTESTS) {
    const failing = [...sub.fails.filter((type) => found.has(type)), ...addressFailures(sub.name, site.addresses)];
    const optional = sub.max === 0;
    // internet.nl wants a year of HSTS; less is 2 points and failed (tasks/http_headers.py). The shortest of any address counts.
    const ages = [site.hstsMaxAge, ...site.addresses.map((a) => a.hstsMaxAge)].filter((age) => age !== null);
    const shortest = ages.length > 0 ? Math.min(...ages) : null;
    const shortHsts = sub.name === 'hsts' && shortest !== null && shortest < INTERNETNL_HSTS_MIN_MAX_AGE;
    tests.push(
      failing.length > 0
        ? test(sub.name, optional ? 'warning' : 'failed', `${sub.label}: ${failing.join(', ')}`, 0, sub.max)
        : shortHsts
          ? test(
              sub.name,
              'failed',
              `${sub.label}: max-age ${shortest} is korter dan een jaar (31536000)`,
              LESS,
              sub.max,
            )
          : test(sub.name, 'passed', `${sub.label}: in orde`, sub.max, sub.max),
    );
  }
  // Required, 10 points (WEB_TLS_ZERO_RTT_GOOD): a server without TLS 1.3 passes, one that offers
  // early data fails (tasks/tls/scans.py, sslyze's TLS_1_3_EARLY_DATA).
  tests.push(
    site.zeroRtt === null
      ? test('zero_rtt', 'not_tested', '0-RTT is niet getest', 0, FULL)
      : site.zeroRtt
        ? test('zero_rtt', 'failed', 'de server biedt 0-RTT (early data) aan: herhaalbare verzoeken', 0, FULL)
        : test('zero_rtt', 'passed', 'geen 0-RTT (early data)', FULL, FULL),
  );
  // OCSP stapling is a notice in internet.nl, and cannot be read from Node's TLS client.
  tests.push(test('ocsp_stapling', 'not_tested', 'OCSP-stapling wordt niet getest'));
  // dane_exists is informational and dane_valid a notice (categories.py): neither is in the score.
  if (dane?.bogus)
    tests.push(test('dane_exists', 'warning', 'TLSA-records met ongeldige DNSSEC-handtekeningen (bogus)'));
  else if (!dane || dane.records.length === 0)
    tests.push(test('dane_exists', 'warning', 'geen TLSA-records voor deze poort'));
  else if (!dane.secure)
    tests.push(test('dane_exists', 'warning', 'TLSA-records zonder geldige DNSSEC: niet te vertrouwen'));
  else {
    tests.push(test('dane_exists', 'passed', `TLSA: ${dane.records.slice(0, 3).join('; ')}`));
    tests.push(
      dane.matches === true
        ? test('dane_valid', 'passed', 'een TLSA-record past bij de keten van de server')
        : dane.matches === false
          ? test('dane_valid', 'warning', 'geen TLSA-record past bij de keten van de server')
          : test('dane_valid', 'warning', 'geen certificaatketen om met de TLSA-records te vergelijken'),
    );
  }
  return tests;
}

/**
 * internet.nl's RPKI subtests (checks/tasks/rpki.py generate_roa_existence_report and
 * generate_validity_report, checks/categories.py RpkiExists and RpkiValid).
 * - exists (5): every address has a covering ROA; one without is a notice with 0 points; no addresses
 *   is not tested with full points.
 * - valid (10): any invalid route origin, or any route that is not valid (not found), fails with 0;
 *   addresses that are all unrouted are not tested with full points; so are no addresses.
 */
export function rpkiPart(name: string, routes: RpkiRoute[]): Scored[] {
  if (routes.some((r) => r.validity === 'error'))
    return [
      test(`${name}_exists`, 'error', 'de RPKI-validator of routebron gaf geen antwoord'),
      test(`${name}_valid`, 'error', 'de RPKI-validator of routebron gaf geen antwoord'),
    ];
  const list = (rs: typeof routes) => rs.map((r) => `${r.address} (${r.prefix}, AS${r.asn}: ${r.validity})`).join('; ');
  if (routes.length === 0)
    return [
      test(`${name}_exists`, 'not_tested', 'geen adressen', HALF, HALF),
      test(`${name}_valid`, 'not_tested', 'geen adressen', FULL, FULL),
    ];
  // internet.nl asks the validator for the ROAs of an unannounced address too; our probe does not, so
  // such an address counts as neither with nor without a ROA (docs/scanner.md, deviations).
  const withoutRoa = routes.filter((r) => r.validity === 'not_found');
  const routed = routes.filter((r) => r.validity !== 'not_routed');
  const invalid = routed.filter((r) => r.validity === 'invalid');
  const notValid = routed.filter((r) => r.validity === 'not_found');
  return [
    withoutRoa.length > 0
      ? test(`${name}_exists`, 'warning', `zonder ROA: ${list(withoutRoa)}`, 0, HALF)
      : test(`${name}_exists`, 'passed', 'alle adressen hebben een ROA', HALF, HALF),
    invalid.length > 0
      ? test(`${name}_valid`, 'failed', `ongeldig: ${list(invalid)}`, 0, FULL)
      : notValid.length > 0
        ? test(`${name}_valid`, 'failed', `niet geldig (geen ROA): ${list(notValid)}`, 0, FULL)
        : routed.length === 0
          ? test(`${name}_valid`, 'not_tested', 'geen gerouteerde adressen', FULL, FULL)
          : test(`${name}_valid`, 'passed', 'alle route-origins zijn geldig', FULL, FULL),
  ];
}

function rpkiTests(rpki: InternetNlEvidence['rpki']): Scored[] {
  if (rpki.state === 'not_tested') return [test('rpki', 'not_tested', rpki.reason)];
  return [...rpkiPart('web', rpki.web), ...rpkiPart('ns', rpki.nameServers)];
}

/** The internet.nl section of a scan; null when its evidence was not gathered. */
export function internetNlReport(
  evidence: InternetNlEvidence | null,
  findings: ReadonlySet<FindingType>,
  site: InternetNlSiteFacts,
): InternetNlReport | null {
  if (!evidence) return null;
  const categories: InternetNlReport['categories'] = {
    ipv6: category(ipv6Tests(evidence.ipv6)),
    dnssec: category(dnssecTests(evidence.dnssec)),
    tls: category(tlsTests(findings, evidence.dane, site)),
    rpki: category(rpkiTests(evidence.rpki)),
  };
  return { score: meanScore(Object.values(categories)), categories };
}
