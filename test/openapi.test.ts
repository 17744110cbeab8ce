import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertOperationsMatchProcedures, openApiDocument } from '../openapi/document.ts';
import { OPENAPI_PROCEDURES } from '../routers/procedures.ts';
import { seedTenant, startApi, type TestApi } from './support/api.ts';

let api: TestApi;
let doc: any;
beforeAll(async () => {
  api = await startApi();
  doc = (await api.call('GET', '/openapi.json')).body;
});
afterAll(() => api.close());

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops as Record<string, any>).map(([method, op]) => ({ path, method, op })),
  );

describe('the OpenAPI document for generators and Swagger UI', () => {
  it("passes Redocly's recommended ruleset without a single error or warning", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
  });

  it('publishes named component schemas and references them', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        'Scan',
        'ScanListItem',
        'ScanDetail',
        'Finding',
        'Suggestion',
        'Webhook',
        'Site',
        'Pagination',
        'SeverityCounts',
        'Error',
      ]),
    );
    expect(Object.keys(doc.components.schemas).filter((name) => name.startsWith('error.'))).toEqual([]);
    const text = JSON.stringify(doc.paths);
    for (const name of ['Scan', 'ScanListItem', 'Finding', 'Pagination', 'Webhook', 'Suggestion', 'Site'])
      expect(text).toContain(`"#/components/schemas/${name}"`);
  });

  it('answers every error status with the Error schema, 429 with Retry-After, and documents the rate-limit headers and Bearer auth', () => {
    for (const { path, method, op } of operations()) {
      const protectedOp = path !== '/api/agent/auth';
      for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
        if (Number(status) >= 400)
          expect(response.content['application/json'].schema, `${method} ${path} ${status}`).toEqual({
            $ref: '#/components/schemas/Error',
          });
        else
          expect(Object.keys(response.headers)).toEqual([
            'x-ratelimit-limit',
            'x-ratelimit-remaining',
            'x-ratelimit-reset',
          ]);
      }
      expect(op.responses['429'].headers['retry-after'], `${method} ${path}`).toBeDefined();
      expect(op.security, `${method} ${path}`).toEqual(protectedOp ? [{ bearerAuth: [] }] : []);
    }
  });

  it('gives optional filters no example, required ids a realistic one, and integers real bounds', () => {
    const list = doc.paths['/api/agent/scans'].get.parameters;
    for (const name of ['site_id', 'since', 'until'])
      expect(JSON.stringify(list.find((p: { name: string }) => p.name === name).schema)).not.toContain('example');
    const detail = doc.paths['/api/agent/scans/{scan_id}'].get.parameters.find(
      (p: { name: string }) => p.name === 'scan_id',
    );
    expect(JSON.stringify(detail)).toMatch(/"example":"[0-9a-f-]{36}"/);
    expect(JSON.stringify(doc)).not.toContain('9007199254740991');
    const limit = list.find((p: { name: string }) => p.name === 'limit').schema;
    expect(limit).toMatchObject({ minimum: 1, maximum: 100 });
    expect(doc.components.schemas.ScanListItem.properties.score).toMatchObject({ minimum: 0, maximum: 100 });
  });

  it('describes the ids in answers exactly as the ids a caller sends, though answers do not re-check the pattern', () => {
    const sent = doc.paths['/api/agent/scans'].get.parameters.find(
      (p: { name: string }) => p.name === 'site_id',
    ).schema;
    for (const answered of [
      doc.components.schemas.ScanListItem.properties.id,
      doc.components.schemas.Finding.properties.scan_id,
    ]) {
      expect(answered).toEqual({ type: 'string', format: 'uuid', pattern: sent.pattern, description: 'UUID' });
    }
    expect(new RegExp(sent.pattern).test('019cc94f-b4d0-74bc-afa0-46921382ec0c')).toBe(true);
  });

  it('carries the API version of /config as info.version', async () => {
    const tenant = await seedTenant(api.db, 'https://example.nl/');
    const config = await api.call('GET', '/api/agent/config', { key: tenant.key });
    expect(doc.info.version).toBe(config.body.api.version);
  });
});

describe('REST operations and their procedures', () => {
  it('names every operation by its procedure, and refuses to build when one is paired with another or with none', () => {
    const built = openApiDocument();
    expect(() => assertOperationsMatchProcedures(built, OPENAPI_PROCEDURES)).not.toThrow();
    expect(OPENAPI_PROCEDURES.map((p) => p.name)).toContain('scans.trigger');
    const list = OPENAPI_PROCEDURES.find((p) => p.name === 'scans.list')!;
    expect(() => assertOperationsMatchProcedures(built, [{ ...list, name: 'sites.list' }])).toThrow(
      /sites\.list \(GET \/api\/agent\/scans: scans-list\)/,
    );
    expect(() => assertOperationsMatchProcedures(built, [{ ...list, path: '/api/agent/nergens' }])).toThrow(
      /no procedure/,
    );
  });
});
