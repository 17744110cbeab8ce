import { describe, expect, it } from 'vitest';
import { diffFindings } from '../domain/finding-lifecycle.ts';
import { compareScans } from '../domain/scan-comparison.ts';
import type { FindingStatus, FindingType, Severity } from '../domain/vocabulary.ts';

// The lifecycle rules without SQLite: what one scan's observations do to a site's findings.

const known = (id: string, finding_type: FindingType, endpoint: string, status: FindingStatus) => ({
  id,
  finding_type,
  endpoint,
  status,
});
const seen = (finding_type: FindingType, endpoint: string) => ({ finding_type, endpoint });
const HOST = 'shop.example';

describe('diffFindings', () => {
  it('opens what the site never had', () => {
    const diff = diffFindings([], [seen('csp_missing', 'https://shop.example/')], HOST);
    expect(diff).toEqual({
      open: [seen('csp_missing', 'https://shop.example/')],
      keep: [],
      reopen: [],
      resolve: [],
      escalate: [],
    });
  });

  it('keeps what is seen again, whatever its status other than resolved', () => {
    const previous = [
      known('a', 'csp_missing', 'https://shop.example/', 'OPEN'),
      known('b', 'hsts_missing', 'https://shop.example/', 'IN_PROGRESS'),
      known('c', 'coop_missing', 'https://shop.example/', 'ACCEPTED_RISK'),
    ];
    const diff = diffFindings(
      previous,
      previous.map((p) => seen(p.finding_type, p.endpoint)),
      HOST,
    );
    expect(diff.keep.map((k) => k.previous.id)).toEqual(['a', 'b', 'c']);
    expect([diff.open, diff.reopen, diff.resolve]).toEqual([[], [], []]);
  });

  it('reopens a resolved finding that comes back', () => {
    const diff = diffFindings(
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
    expect(diffFindings(previous, [], HOST).resolve.map((f) => f.id)).toEqual(['a', 'b']);
  });

  it('resolves nothing on a host the scan did not cover', () => {
    const previous = [
      known('a', 'csp_missing', 'https://blog.shop.example/', 'OPEN'),
      known('b', 'exposed_env_file', 'http://shop.example:8080/.env', 'OPEN'),
    ];
    expect(diffFindings(previous, [], HOST).resolve.map((f) => f.id)).toEqual(['b']);
    expect(diffFindings(previous, [], 'blog.shop.example').resolve.map((f) => f.id)).toEqual(['a']);
  });

  it('tells findings apart by type and endpoint, and counts a repeated observation once', () => {
    const previous = [known('a', 'csp_missing', 'https://shop.example/', 'OPEN')];
    const observed = [
      seen('csp_missing', 'https://shop.example/login'),
      seen('csp_missing', 'https://shop.example/login'),
      seen('hsts_missing', 'https://shop.example/'),
    ];
    const diff = diffFindings(previous, observed, HOST);
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
    const diff = diffFindings(
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
      const diff = diffFindings([known('a', fromType, fromEndpoint, status)], [seen(toType, toEndpoint)], HOST);
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
    });
  });
});
