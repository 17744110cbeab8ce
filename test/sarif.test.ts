import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint, toSarif, type SarifLog } from '../scanner/report/sarif.ts';
import { expectValidSarif } from './support/sarif-schema.ts';
import { seedTenant, startApi, type Tenant, type TestApi } from './support/api.ts';
import type { FixtureSite } from './support/fixture-sites.ts';
import { leakyWordPressSite } from './support/sites.ts';

let api: TestApi;
let leaky: FixtureSite;
let owner: Tenant;
let reader: Tenant;
let writerOnly: Tenant;
let stranger: Tenant;
beforeAll(async () => {
  [api, leaky] = await Promise.all([startApi(), leakyWordPressSite()]);
  owner = await seedTenant(api.db, leaky.url);
  reader = await seedTenant(api.db, 'https://lezer.example/', { permissions: ['read_scans'] });
  writerOnly = await seedTenant(api.db, 'https://schrijver.example/', { permissions: ['write_scans'] });
  stranger = await seedTenant(api.db, 'https://vreemde.example/');
});
afterAll(async () => Promise.all([api.close(), leaky.close()]));

const scanOnce = async () =>
  (await api.call('POST', '/api/agent/scan', { key: owner.key, body: { site_id: owner.siteId } })).body
    .scan_id as string;
const sarifOf = (scanId: string, key = owner.key) => api.call('GET', `/api/agent/scans/${scanId}/sarif`, { key });
const run0 = (log: SarifLog) => log.runs[0] as any;

describe('GET /api/agent/scans/{scan_id}/sarif', () => {
  it('answers a valid SARIF 2.1.0 log as application/sarif+json, a rule per finding type and a result per finding', async () => {
    const scanId = await scanOnce();
    const detail = (await api.call('GET', `/api/agent/scans/${scanId}`, { key: owner.key })).body;
    const answer = await sarifOf(scanId);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/sarif\+json/);
    expectValidSarif(answer.body);
    const log = answer.body as SarifLog;
    expect(log.version).toBe('2.1.0');
    const { tool, results, originalUriBaseIds } = run0(log);
    expect(tool.driver).toMatchObject({
      name: 'Website Security Scanner',
      version: expect.any(String),
      informationUri: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/agent\/docs$/),
    });
    const types = [...new Set(detail.findings.map((f: { finding_type: string }) => f.finding_type))];
    expect(tool.driver.rules.map((r: { id: string }) => r.id).sort()).toEqual([...types].sort());
    expect(results).toHaveLength(detail.findings.length);
    const git = tool.driver.rules.find((r: { id: string }) => r.id === 'exposed_git_config');
    expect(git).toMatchObject({
      shortDescription: { text: expect.stringMatching(/\S/) },
      fullDescription: { text: expect.stringMatching(/\S/) },
      help: { text: expect.stringMatching(/\S/) },
      helpUri: expect.stringMatching(/^https:\/\//),
      properties: { 'security-severity': '9.5', tags: expect.arrayContaining(['EXPOSED_ENDPOINT']) },
    });
    const levels = Object.fromEntries(results.map((r: { ruleId: string; level: string }) => [r.ruleId, r.level]));
    expect(levels).toMatchObject({
      exposed_git_config: 'error',
      https_unavailable: 'error',
      session_cookie_missing_secure: 'error',
      csp_missing: 'warning',
      server_version_disclosure: 'note',
    });
    for (const result of results) {
      const location = result.locations[0];
      // GitHub rejects a whole upload whose artifact URI is an https:// URL.
      expect(location.physicalLocation.artifactLocation.uri).not.toMatch(/^[a-z]+:/);
      expect(originalUriBaseIds[location.physicalLocation.artifactLocation.uriBaseId].uri).toMatch(
        /^https?:\/\/127\.0\.0\.1(:\d+)?\/$/,
      );
      expect(location.logicalLocations[0].fullyQualifiedName).toMatch(/^https?:\/\//);
      expect(result.partialFingerprints.primaryLocationLineHash).toMatch(/^[0-9a-f]{32}:1$/);
    }
  });

  it('keeps the fingerprints of a rescan, so the same alerts match', async () => {
    const [first, second] = [await sarifOf(await scanOnce()), await sarifOf(await scanOnce())];
    const prints = (answer: { body: SarifLog }) =>
      run0(answer.body)
        .results.map(
          (r: { partialFingerprints: { primaryLocationLineHash: string } }) =>
            r.partialFingerprints.primaryLocationLineHash,
        )
        .sort();
    expect(prints(second)).toEqual(prints(first));
    expect(fingerprint('csp_missing', 'HTTPS://Example.nl:443/?a=1#x')).toBe(
      fingerprint('csp_missing', 'https://example.nl/'),
    );
  });

  it("needs read_scans, and answers another tenant's scan 404 like a missing one", async () => {
    const scanId = await scanOnce();
    expect((await sarifOf(scanId, reader.key)).status).toBe(404);
    expect((await sarifOf(scanId, stranger.key)).status).toBe(404);
    expect((await sarifOf(scanId, writerOnly.key)).status).toBe(403);
    expect((await sarifOf('00000000-0000-7000-8000-000000000000')).status).toBe(404);
    expect((await api.call('GET', `/api/agent/scans/${scanId}/sarif`)).status).toBe(401);
    expect((await sarifOf('geen-uuid')).body).toEqual({ error: expect.stringMatching(/scan_id/) });
  });

  it('declares the media type in the OpenAPI document', async () => {
    const doc = (await api.call('GET', '/openapi.json')).body;
    const operation = doc.paths['/api/agent/scans/{scan_id}/sarif'].get;
    expect(Object.keys(operation.responses['200'].content)).toEqual(['application/sarif+json']);
  });
});

describe('toSarif', () => {
  const TOOL = {
    name: 'Website Security Scanner',
    version: '0.1.0',
    informationUri: 'http://127.0.0.1:3000/api/agent/docs',
  };
  /** A scan of example.nl with no findings, as toSarif takes it. */
  const scanOf = (passive: boolean, coverage: Parameters<typeof toSarif>[0]['coverage']) => ({
    url: 'https://example.nl/',
    score: 50,
    grade: 'zwak',
    scanned_at: '2026-11-24T10:00:00.000Z',
    unreachable: null,
    passive,
    coverage,
    findings: [],
  });

  it('reports failed and skipped tests as tool notifications with their subject and reason, completed ones not', () => {
    const log = toSarif(
      scanOf(false, [
        { test: 'security_headers', subject: 'https://example.nl', status: 'completed', reason: null },
        {
          test: 'exposures',
          subject: 'https://example.nl',
          status: 'skipped',
          reason: 'uitgeschakeld door de beheerder',
        },
        { test: 'client_code', subject: 'https://example.nl/app.js', status: 'failed', reason: 'time-out na 10 s' },
        {
          test: 'nextjs_middleware',
          subject: 'https://example.nl',
          status: 'not_applicable',
          reason: 'geen Next.js-site',
        },
      ]),
      TOOL,
    );
    expectValidSarif(log);
    const invocation = run0(log).invocations[0];
    expect(invocation.executionSuccessful).toBe(true);
    expect(
      invocation.toolExecutionNotifications.map(
        (n: { level: string; descriptor: { id: string }; message: { text: string } }) => [
          n.level,
          n.descriptor.id,
          n.message.text,
        ],
      ),
    ).toEqual([
      [
        'note',
        'exposures',
        'Test exposures op https://example.nl: overgeslagen; bevindingen blijven open (uitgeschakeld door de beheerder).',
      ],
      [
        'warning',
        'client_code',
        'Test client_code op https://example.nl/app.js: niet voltooid; bevindingen kunnen ontbreken en blijven open (time-out na 10 s).',
      ],
    ]);
  });

  it('says a passive scan is passive, first among the notifications and in the run properties', () => {
    const log = toSarif(
      scanOf(true, [
        { test: 'exposures', subject: 'https://example.nl', status: 'skipped', reason: 'eigendom niet aangetoond' },
      ]),
      TOOL,
    );
    expectValidSarif(log);
    const [first, second] = run0(log).invocations[0].toolExecutionNotifications;
    expect(first).toMatchObject({ level: 'warning', descriptor: { id: 'passive_scan' } });
    expect(first.message.text).toMatch(/^Passieve scan/);
    expect(second.message.text).toContain('eigendom niet aangetoond');
    expect(run0(log).properties.passive).toBe(true);
  });
});
