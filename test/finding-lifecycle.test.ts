import { describe, expect, it } from 'vitest';
import { changeRowsOf, planFindings } from '../domain/finding-lifecycle.ts';
import { recheckedBy, type Coverage } from '../scanner/index.ts';
import { completeCoverage } from './support/scan-results.ts';
import { compareScans } from '../domain/scan-comparison.ts';
import type { FindingStatus, FindingType, Severity } from '../domain/vocabulary.ts';

// The lifecycle rules without SQLite: what one scan's observations do to a site's findings.

const known = (id: string, finding_type: FindingType, endpoint: string, status: FindingStatus) => ({
  id,
  finding_type,
  endpoint,
  status,
  severity: 'MEDIUM' as const,
});
const seen = (finding_type: FindingType, endpoint: string) => ({ finding_type, endpoint, severity: 'MEDIUM' as const });
const HOST = 'shop.example';

/** The plan of a scan whose every test completed on `host` (https and http origins), or with this coverage. */
function planOf<P extends ReturnType<typeof known>, O extends ReturnType<typeof seen>>(
  previous: P[],
  observed: O[],
  host: string,
  coverage: Coverage[] = [...completeCoverage(`https://${host}/`), ...completeCoverage(`http://${host}:8080/`)],
) {
  let n = 0;
  // The pages of the covered host were examined again (a page-level finding needs its pages read).
  const examined = previous.map((f) => f.endpoint).filter((e) => URL.canParse(e) && new URL(e).hostname === host);
  const plan = planFindings(previous, observed, recheckedBy(coverage, examined), () => `new-${++n}`);
  return { ...plan, open: plan.open.map((o) => o.observed) };
}

describe('planFindings', () => {
  it('opens what the site never had', () => {
    const diff = planOf([], [seen('csp_missing', 'https://shop.example/')], HOST);
    expect(diff).toEqual({
      open: [seen('csp_missing', 'https://shop.example/')],
      keep: [],
      reopen: [],
      resolve: [],
      escalate: [],
      unverified: [],
      severityChanged: [],
    });
  });

  it('keeps what is seen again, whatever its status other than resolved', () => {
    const previous = [
      known('a', 'csp_missing', 'https://shop.example/', 'OPEN'),
      known('b', 'hsts_missing', 'https://shop.example/', 'IN_PROGRESS'),
      known('c', 'coop_missing', 'https://shop.example/', 'ACCEPTED_RISK'),
    ];
    const diff = planOf(
      previous,
      previous.map((p) => seen(p.finding_type, p.endpoint)),
      HOST,
    );
    expect(diff.keep.map((k) => k.previous.id)).toEqual(['a', 'b', 'c']);
    expect([diff.open, diff.reopen, diff.resolve]).toEqual([[], [], []]);
  });

  it('reopens a resolved finding that comes back', () => {
    const diff = planOf(
      [known('a', 'csp_missing', 'https://shop.example/', 'RESOLVED')],
      [seen('csp_missing', 'https://shop.example/')],
      HOST,
    );
    expect(diff.reopen).toEqual([
      {
        previous: known('a', 'csp_missing', 'https://shop.example/', 'RESOLVED'),
        observed: seen('csp_missing', 'https://shop.example/'),
      },
    ]);
    expect(diff.open).toEqual([]);
  });

  it('resolves open and in-progress findings that are gone, but never an accepted risk or a resolved one', () => {
    const previous = [
      known('a', 'csp_missing', 'https://shop.example/', 'OPEN'),
      known('b', 'hsts_missing', 'https://shop.example/', 'IN_PROGRESS'),
      known('c', 'coop_missing', 'https://shop.example/', 'ACCEPTED_RISK'),
      known('d', 'x_frame_options_missing', 'https://shop.example/', 'RESOLVED'),
    ];
    expect(planOf(previous, [], HOST).resolve.map((f) => f.id)).toEqual(['a', 'b']);
  });

  it('resolves nothing on a host the scan did not cover: those findings are unverified', () => {
    const previous = [
      known('a', 'csp_missing', 'https://blog.shop.example/', 'OPEN'),
      known('b', 'exposed_env_file', 'http://shop.example:8080/.env', 'OPEN'),
    ];
    const onShop = planOf(previous, [], HOST);
    expect([onShop.resolve.map((f) => f.id), onShop.unverified.map((f) => f.id)]).toEqual([['b'], ['a']]);
    const onBlog = planOf(previous, [], 'blog.shop.example');
    expect([onBlog.resolve.map((f) => f.id), onBlog.unverified.map((f) => f.id)]).toEqual([['a'], ['b']]);
  });

  it('resolves only where a test that can report the finding completed, and lists the rest as unverified', () => {
    const previous = [
      known('env', 'exposed_env_file', 'https://shop.example/.env', 'OPEN'),
      known('csp', 'csp_missing', 'https://shop.example/', 'OPEN'),
      known('key', 'client_secret_openai', 'https://shop.example/app.js', 'OPEN'),
      known('key2', 'client_secret_openai', 'https://shop.example/other.js', 'IN_PROGRESS'),
      known('tls', 'tls_1_0_supported', 'https://shop.example/', 'OPEN'),
    ];
    const coverage: Coverage[] = [
      {
        test: 'exposures',
        subject: 'https://shop.example',
        status: 'skipped',
        reason: 'uitgeschakeld door de beheerder',
      },
      { test: 'security_headers', subject: 'https://shop.example', status: 'completed', reason: null },
      { test: 'client_code', subject: 'https://shop.example', status: 'completed', reason: null },
      { test: 'client_code', subject: 'https://shop.example/app.js', status: 'failed', reason: 'time-out na 10 s' },
      { test: 'tls', subject: 'https://shop.example', status: 'failed', reason: 'geen TLS-verbinding op poort 443' },
    ];
    const plan = planOf(previous, [], HOST, coverage);
    expect(plan.resolve.map((f) => f.id)).toEqual(['csp', 'key2']);
    expect(plan.unverified.map((f) => f.id)).toEqual(['env', 'key', 'tls']);
    const rows = changeRowsOf({ ...plan, open: [] });
    expect(rows.filter((r) => r.kind === 'unverified').map((r) => r.finding_id)).toEqual(['env', 'key', 'tls']);
  });

  it('resolves nothing after a scan that reached nothing', () => {
    const previous = [known('a', 'csp_missing', 'https://shop.example/', 'OPEN')];
    const down: Coverage[] = completeCoverage('https://shop.example/').map((entry) => ({
      ...entry,
      status: 'failed',
      reason: 'site niet bereikbaar',
    }));
    const plan = planOf(previous, [], HOST, down);
    expect([plan.resolve, plan.unverified.map((f) => f.id)]).toEqual([[], ['a']]);
  });

  it('tells findings apart by type and endpoint, and counts a repeated observation once', () => {
    const previous = [known('a', 'csp_missing', 'https://shop.example/', 'OPEN')];
    const observed = [
      seen('csp_missing', 'https://shop.example/login'),
      seen('csp_missing', 'https://shop.example/login'),
      seen('hsts_missing', 'https://shop.example/'),
    ];
    const diff = planOf(previous, observed, HOST);
    expect(diff.open).toEqual([
      seen('csp_missing', 'https://shop.example/login'),
      seen('hsts_missing', 'https://shop.example/'),
    ]);
    expect(diff.resolve.map((f) => f.id)).toEqual(['a']);
  });
});

describe('escalation', () => {
  const ORIGIN = 'https://shop.example/';

  it('replaces a stage of a condition by a further one at the same endpoint instead of resolving it', () => {
    const diff = planOf(
      [known('a', 'tls_certificate_expires_within_30_days', ORIGIN, 'OPEN')],
      [seen('tls_certificate_expires_within_14_days', ORIGIN)],
      HOST,
    );
    expect(diff.resolve).toEqual([]);
    expect(diff.escalate).toEqual([
      {
        previous: known('a', 'tls_certificate_expires_within_30_days', ORIGIN, 'OPEN'),
        observed: seen('tls_certificate_expires_within_14_days', ORIGIN),
      },
    ]);
    expect(diff.open).toEqual([seen('tls_certificate_expires_within_14_days', ORIGIN)]);
  });

  it('does not escalate backwards, across endpoints, across families or from an accepted risk', () => {
    const cases: Array<[FindingType, string, FindingStatus, FindingType, string]> = [
      ['tls_certificate_expired', ORIGIN, 'OPEN', 'tls_certificate_expires_within_30_days', ORIGIN],
      [
        'tls_certificate_expires_within_30_days',
        ORIGIN,
        'OPEN',
        'tls_certificate_expired',
        'https://shop.example:8443/',
      ],
      ['security_txt_expires_soon', ORIGIN, 'OPEN', 'tls_certificate_expired', ORIGIN],
      ['tls_certificate_expires_within_30_days', ORIGIN, 'ACCEPTED_RISK', 'tls_certificate_expired', ORIGIN],
    ];
    for (const [fromType, fromEndpoint, status, toType, toEndpoint] of cases) {
      const diff = planOf([known('a', fromType, fromEndpoint, status)], [seen(toType, toEndpoint)], HOST);
      expect(diff.escalate, `${fromType} -> ${toType}`).toEqual([]);
    }
  });
});

describe('compareScans', () => {
  const at = (day: number) => `2026-11-${String(day).padStart(2, '0')}T00:00:00.000Z`;
  const f = (finding_id: string, finding_type: FindingType, severity: Severity, created: number) => ({
    finding_id,
    finding_type,
    endpoint: 'https://shop.example/',
    severity,
    created_at: at(created),
  });

  it('tells new from regressed by when the site first had the finding, and pairs escalations', () => {
    const before = {
      id: 'scan-1',
      scanned_at: at(10),
      findings: [
        f('csp', 'csp_missing', 'MEDIUM', 1),
        f('cert30', 'tls_certificate_expires_within_30_days', 'MEDIUM', 9),
        f('hsts', 'hsts_missing', 'HIGH', 1),
      ],
    };
    const after = [
      f('csp', 'csp_missing', 'HIGH', 1),
      f('cert14', 'tls_certificate_expires_within_14_days', 'HIGH', 15),
      f('coop', 'coop_missing', 'LOW', 2),
      f('xfo', 'x_frame_options_missing', 'MEDIUM', 12),
    ];
    expect(compareScans(before, after)).toEqual({
      compared_to_scan_id: 'scan-1',
      new: ['xfo'],
      regressed: ['coop'],
      resolved: ['hsts'],
      severity_changed: [{ finding_id: 'csp', from: 'MEDIUM', to: 'HIGH' }],
      escalated: [{ finding_id: 'cert14', from_finding_id: 'cert30' }],
      unverified: [],
    });
    expect(compareScans(before, after, new Set(['hsts'])).unverified).toEqual(['hsts']);
  });
});
