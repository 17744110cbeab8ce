import { describe, expect, it } from 'vitest';
import { diffFindings } from '../domain/finding-lifecycle.ts';
import type { FindingStatus, FindingType } from '../domain/vocabulary.ts';

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
    expect(diff).toEqual({ open: [seen('csp_missing', 'https://shop.example/')], keep: [], reopen: [], resolve: [] });
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
