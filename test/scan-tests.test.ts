import { afterAll, describe, expect, it } from 'vitest';
import { CHECK_NAMES } from '../scanner/analyze.ts';
import { CATALOG, FINDING_TYPES } from '../scanner/catalog/index.ts';
import { observe } from '../scanner/checks/context.ts';
import { subjectHolds } from '../scanner/coverage.ts';
import { HttpClient } from '../scanner/net/http-client.ts';
import { reachSite, type RetrieveOptions } from '../scanner/probes/retriever.ts';
import { runTests } from '../scanner/run-tests.ts';
import { TEST_NAMES, TESTS } from '../scanner/tests/registry.ts';
import { defineTest } from '../scanner/tests/test.ts';
import { startSite, type FixtureSite } from './support/fixture-sites.ts';

// The registry holds every test to what it declares: each finding type has one test that may report
// it, each check one owner, and a test that reports a type it did not declare fails in that scan.

const sites: FixtureSite[] = [];
afterAll(() => Promise.all(sites.map((s) => s.close())));

describe('the registry of tests', () => {
  it('has each finding type of the catalog produced by exactly one test', () => {
    const producers = new Map<string, string[]>();
    for (const test of TESTS)
      for (const type of test.produces) producers.set(type, [...(producers.get(type) ?? []), test.name]);
    expect(FINDING_TYPES.filter((type) => producers.get(type)?.length !== 1)).toEqual([]);
    const known = new Set<string>(FINDING_TYPES);
    expect([...producers.keys()].filter((type) => !known.has(type))).toEqual([]);
  });

  it("declares each test's category as the category of every finding type it produces", () => {
    const mismatched = TESTS.flatMap((test) =>
      test.produces.filter((type) => CATALOG[type].category !== test.category).map((type) => `${test.name}: ${type}`),
    );
    expect(mismatched).toEqual([]);
  });

  it('names each test and each check once, and failed_checks lists exactly the checks of the registry', () => {
    expect(new Set(TEST_NAMES).size).toBe(TESTS.length);
    const checks = TESTS.flatMap((test) => Object.keys(test.checks));
    expect(new Set(checks).size).toBe(checks.length);
    expect([...CHECK_NAMES].sort()).toEqual([...checks].sort());
  });

  it('fails a test that reports a finding type it did not declare, keeping none of its findings', async () => {
    const site = await startSite({ routes: { '/': { headers: { 'content-type': 'text/html' }, body: '<p>x</p>' } } });
    sites.push(site);
    const liar = defineTest({
      name: 'liar',
      category: 'SECURITY_HEADER',
      subject: 'page',
      reach: 'passive',
      produces: ['coop_missing'],
      checks: { liar: (ctx) => [observe('csp_missing', ctx.evidence.page!.url)] },
      subjectOf: (contact) => new URL(contact.target).origin,
    });
    const honest = defineTest({
      name: 'honest',
      category: 'SECURITY_HEADER',
      subject: 'page',
      reach: 'passive',
      produces: ['coop_missing'],
      checks: { honest: (ctx) => [observe('coop_missing', ctx.evidence.page!.url)] },
      subjectOf: (contact) => new URL(contact.target).origin,
    });
    const signal = new AbortController().signal;
    const options: RetrieveOptions = {
      allowPrivateTargets: true,
      requestTimeoutMs: 2_000,
      concurrency: 4,
      signal,
      probeExposures: true,
    };
    const client = new HttpClient({ ...options, maxSocketsPerHost: 4 });
    const reported: string[] = [];
    try {
      const contact = await reachSite(new URL(site.url), client, options);
      const run = await runTests(contact, client, options, (name) => reported.push(name), [liar, honest]);
      expect(run.coverage).toEqual([
        {
          test: 'liar',
          subject: site.url.replace(/\/$/, ''),
          status: 'failed',
          reason: 'de test meldde een soort bevinding die hij niet heeft aangemeld',
        },
        { test: 'honest', subject: site.url.replace(/\/$/, ''), status: 'completed', reason: null },
      ]);
      expect(run.findings.map((f) => f.finding_type)).toEqual(['coop_missing']);
      expect(run.failedChecks).toEqual(['liar']);
      expect(reported).toEqual(['liar']);
    } finally {
      client.close();
    }
  });
});

describe('which subject holds a finding', () => {
  it('holds by host, origin, exact script URL, and for scripts the backends on other sites', () => {
    expect(subjectHolds('host', 'shop.nl', 'https://shop.nl:8443/x')).toBe(true);
    expect(subjectHolds('host', 'shop.nl', 'https://www.shop.nl/')).toBe(false);
    expect(subjectHolds('origin', 'https://shop.nl', 'https://shop.nl/.env')).toBe(true);
    expect(subjectHolds('origin', 'https://shop.nl', 'http://shop.nl/.env')).toBe(false);
    expect(subjectHolds('script', 'https://shop.nl/app.js', 'https://shop.nl/app.js')).toBe(true);
    expect(subjectHolds('script', 'https://shop.nl/app.js', 'https://shop.nl/other.js')).toBe(false);
    expect(subjectHolds('script', 'https://shop.nl', 'https://abcdefgh.supabase.co/rest/v1/orders')).toBe(true);
    expect(subjectHolds('script', 'https://www.shop.nl', 'https://blog.shop.nl/app.js')).toBe(false);
    expect(subjectHolds('origin', 'https://shop.nl', 'geen url')).toBe(false);
  });
});
