import SwaggerParser from '@apidevtools/swagger-parser';
import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../routers/index.ts';
import * as admin from '../services/admin.ts';
import {
  CATEGORIES,
  GRADES,
  PERMISSIONS,
  SITE_PLATFORMS,
  SCAN_TRIGGERS,
  SEVERITIES,
  WEBHOOK_EVENTS,
} from '../domain/vocabulary.ts';
import { seedTenant, startApi, type Tenant, type TestApi } from './support/api.ts';

let api: TestApi;
let owner: Tenant;
let stranger: Tenant;
beforeAll(async () => {
  api = await startApi();
  owner = await seedTenant(api.db, 'https://owner.example/');
  stranger = await seedTenant(api.db, 'https://stranger.example/');
});
afterAll(() => api.close());

const SUGGESTION = {
  type: 'config_change',
  title: 'HSTS aanzetten',
  description: 'Voeg Strict-Transport-Security toe in nginx.',
  diff: '--- a\n+++ b\n',
  file_path: 'nginx.conf',
  metadata: { finding: 'hsts_missing' },
};

describe('suggestions', () => {
  it('accepts a suggestion as pending (201) and stores diff and metadata without echoing them', async () => {
    const { status, body } = await api.call('POST', '/api/agent/suggestions', { key: owner.key, body: SUGGESTION });
    expect(status).toBe(201);
    expect(body).toEqual({
      suggestion: {
        id: expect.any(String),
        type: 'config_change',
        title: 'HSTS aanzetten',
        status: 'pending',
        created_at: expect.stringMatching(/Z$/),
      },
      message: expect.stringMatching(/beoordeel/),
    });
    const row = await api.db
      .selectFrom('suggestions')
      .selectAll()
      .where('id', '=', body.suggestion.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      diff: SUGGESTION.diff,
      metadata: JSON.stringify(SUGGESTION.metadata),
      tenant_id: owner.tenantId,
    });
  });

  it.each([
    [{ ...SUGGESTION, title: 'kort' }, /title/],
    [{ ...SUGGESTION, description: 'te kort' }, /description/],
    [{ ...SUGGESTION, type: 'hotfix' }, /type/],
    [{ ...SUGGESTION, metadata: 'x' }, /metadata/],
    [{ title: 'Zonder type', description: 'Een beschrijving van tien' }, /type/],
  ])('answers 400 for an invalid suggestion (%#)', async (body, field) => {
    const response = await api.call('POST', '/api/agent/suggestions', { key: owner.key, body });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(field);
  });

  it('lists suggestions with review fields only after review, filtered by status, per tenant', async () => {
    const created = (
      await api.call('POST', '/api/agent/suggestions', {
        key: owner.key,
        body: { type: 'code_fix', title: 'Tweede voorstel', description: 'Nog een beschrijving' },
      })
    ).body.suggestion;
    await admin.review(
      { db: api.db, config: api.config },
      {
        suggestion_id: created.id,
        status: 'approved',
        notes: 'Goed plan',
      },
    );
    const list = (await api.call('GET', '/api/agent/suggestions', { key: owner.key })).body;
    expect(list.pagination).toEqual({ total: 2, limit: 20, offset: 0, has_more: false });
    const reviewed = list.suggestions.find((s: { id: string }) => s.id === created.id);
    expect(reviewed).toEqual({
      id: created.id,
      type: 'code_fix',
      title: 'Tweede voorstel',
      description: 'Nog een beschrijving',
      status: 'approved',
      review_notes: 'Goed plan',
      reviewed_at: expect.stringMatching(/Z$/),
      created_at: created.created_at,
    });
    const pending = list.suggestions.find((s: { id: string }) => s.id !== created.id);
    expect(Object.keys(pending).sort()).toEqual([
      'created_at',
      'description',
      'file_path',
      'id',
      'status',
      'title',
      'type',
    ]);
    expect(
      (await api.call('GET', '/api/agent/suggestions?status=approved', { key: owner.key })).body.suggestions,
    ).toHaveLength(1);
    expect((await api.call('GET', '/api/agent/suggestions?status=nope', { key: owner.key })).status).toBe(400);
    expect((await api.call('GET', '/api/agent/suggestions?limit=101', { key: owner.key })).status).toBe(400);
    expect((await api.call('GET', '/api/agent/suggestions', { key: stranger.key })).body.suggestions).toEqual([]);
  });

  it('is switched off for everyone by the suggestions feature flag', async () => {
    await admin.setFlag({ db: api.db, config: api.config }, { key: 'suggestions', enabled: false });
    try {
      const response = await api.call('GET', '/api/agent/suggestions', { key: owner.key });
      expect(response.status).toBe(403);
      expect(response.body.error).toMatch(/uitgeschakeld/);
    } finally {
      await admin.setFlag({ db: api.db, config: api.config }, { key: 'suggestions', enabled: true });
    }
  });
});

describe('GET /api/agent/config', () => {
  it('returns platform, stats, the seeded plans, flags, scanner lists and api info', async () => {
    const { status, body } = await api.call('GET', '/api/agent/config', { key: owner.key });
    expect(status).toBe(200);
    expect(body.platform).toEqual({ name: expect.any(String), version: '0.1.0', description: expect.any(String) });
    expect(body.stats).toMatchObject({ total_sites: 2, total_tenants: 2, active_tenants: 2 });
    expect(Object.keys(body.stats.platforms).sort()).toEqual([...SITE_PLATFORMS].sort());
    expect(
      body.plans.map((p: Record<string, unknown>) => [
        p.tier,
        p.monthly_price_eur,
        p.max_sites,
        p.max_api_calls_per_month,
        p.max_scans_per_month,
      ]),
    ).toEqual([
      ['free', 0, 1, 1000, 30],
      ['pro', 2900, 10, 50000, 1000],
      ['enterprise', 19900, 1000, 5000000, 100000],
    ]);
    expect(body.plans[0]).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Free',
      features: expect.any(Array),
    });
    expect(body.feature_flags.map((f: { key: string }) => f.key).sort()).toEqual([
      'exposure_probes',
      'suggestions',
      'webhooks',
    ]);
    expect(body.feature_flags[0]).toEqual({
      key: expect.any(String),
      description: expect.any(String),
      enabled: true,
      rollout_percentage: 100,
    });
    expect(body.scanner).toEqual({
      categories: [...CATEGORIES],
      severity_levels: [...SEVERITIES],
      grades: [...GRADES],
      supported_platforms: [...SITE_PLATFORMS],
      vulnerability_data: [
        {
          // The tests' API imports the shipped retire.js file as current (test/support/api.ts).
          source: 'retire',
          updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          records: expect.any(Number),
          stale: false,
          age_days: 0,
          complete: true,
          licence: expect.stringContaining('Apache-2.0'),
        },
        {
          source: 'wordfence',
          updated_at: '2026-11-27T00:00:00Z',
          records: 9,
          stale: expect.any(Boolean),
          age_days: expect.any(Number),
          complete: false,
          licence: expect.stringContaining('Wordfence'),
        },
      ],
    });
    expect(body.scanner.vulnerability_data[0].records).toBeGreaterThan(500);
    expect(body.api).toEqual({
      version: expect.any(String),
      rate_limit_default: 100,
      permissions: [...PERMISSIONS],
      webhook_events: [...WEBHOOK_EVENTS],
      scan_triggers: [...SCAN_TRIGGERS],
    });
    expect(body.plans.map((p: { min_scan_interval_hours: number }) => p.min_scan_interval_hours)).toEqual([24, 1, 1]);
    expect(JSON.stringify(body)).not.toMatch(/sak_|whsec_|key_hash|secret/);
  });
});

describe('webhooks', () => {
  it('registers a webhook enabled with a generated whsec_ secret shown once', async () => {
    const { status, body } = await api.call('POST', '/api/agent/webhooks', {
      key: owner.key,
      body: { url: 'https://hooks.example.nl/scanner', events: ['scan_completed', 'finding_new'] },
    });
    expect(status).toBe(201);
    expect(body.webhook).toEqual({
      id: expect.any(String),
      url: 'https://hooks.example.nl/scanner',
      events: ['scan_completed', 'finding_new'],
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      enabled: true,
      created_at: expect.stringMatching(/Z$/),
    });
    expect(body.message).toMatch(/veilig/);
    const list = (await api.call('GET', '/api/agent/webhooks', { key: owner.key })).body;
    expect(list.webhooks).toEqual([
      {
        id: body.webhook.id,
        url: body.webhook.url,
        events: body.webhook.events,
        enabled: true,
        last_triggered_at: null,
        failure_count: 0,
        created_at: body.webhook.created_at,
      },
    ]);
    expect(JSON.stringify(list)).not.toContain(body.webhook.secret);
  });

  it('accepts a supplied secret of the Standard Webhooks form', async () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const response = await api.call('POST', '/api/agent/webhooks', {
      key: owner.key,
      body: { url: 'https://hooks.example.nl/2', events: ['finding_resolved'], secret },
    });
    expect(response.status).toBe(201);
    expect(response.body.webhook.secret).toBe(secret);
  });

  it.each([
    [{ url: 'http://hooks.example.nl/', events: ['scan_completed'] }, /https/],
    [{ url: 'https://localhost/x', events: ['scan_completed'] }, /localhost/],
    [{ url: 'https://10.0.0.5/x', events: ['scan_completed'] }, /10\.0\.0\.5/],
    [{ url: 'https://169.254.169.254/latest', events: ['scan_completed'] }, /169\.254/],
    [{ url: 'https://hooks.example.nl/', events: [] }, /events/],
    [{ url: 'https://hooks.example.nl/', events: ['scan_started'] }, /events/],
    [{ url: 'https://hooks.example.nl/', events: ['scan_completed'], secret: 'geheim' }, /secret/],
    [
      {
        url: 'https://hooks.example.nl/',
        events: ['scan_completed'],
        secret: `whsec_${Buffer.alloc(8).toString('base64')}`,
      },
      /secret/,
    ],
  ])('answers 400 for an unusable registration (%#)', async (body, message) => {
    const guarded = await startApi({ SCANNER_ALLOW_PRIVATE_TARGETS: 'false' });
    try {
      const tenant = await seedTenant(guarded.db, 'https://x.example/');
      const response = await guarded.call('POST', '/api/agent/webhooks', { key: tenant.key, body });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatch(message);
    } finally {
      await guarded.close();
    }
  });

  it("deletes a webhook of the tenant, and answers 404 for another tenant's or an unknown id", async () => {
    const created = (
      await api.call('POST', '/api/agent/webhooks', {
        key: owner.key,
        body: { url: 'https://hooks.example.nl/3', events: ['suggestion_reviewed'] },
      })
    ).body.webhook;
    const foreign = await api.call('DELETE', `/api/agent/webhooks?id=${created.id}`, { key: stranger.key });
    const unknown = await api.call('DELETE', '/api/agent/webhooks?id=00000000-0000-4000-8000-000000000000', {
      key: stranger.key,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(unknown.body);
    expect((await api.call('GET', '/api/agent/webhooks', { key: stranger.key })).body.webhooks).toEqual([]);
    const deleted = await api.call('DELETE', `/api/agent/webhooks?id=${created.id}`, { key: owner.key });
    expect(deleted).toMatchObject({ status: 200, body: { message: expect.stringMatching(/verwijderd/) } });
    expect((await api.call('DELETE', '/api/agent/webhooks', { key: owner.key })).status).toBe(400);
    expect((await api.call('DELETE', '/api/agent/webhooks?id=nope', { key: owner.key })).status).toBe(400);
  });
});

describe('docs', () => {
  it('serves a valid OpenAPI 3 document describing every operation with its responses', async () => {
    const { status, body } = await api.call('GET', '/openapi.json');
    expect(status).toBe(200);
    await SwaggerParser.validate(structuredClone(body));
    const operations = Object.entries(body.paths).flatMap(([path, ops]) =>
      Object.entries(ops as object).map(([method, op]) => ({ path, method, op })),
    );
    expect(operations.map((o) => `${o.method.toUpperCase()} ${o.path}`).sort()).toEqual(
      [
        'POST /api/agent/auth',
        'POST /api/agent/scan',
        'GET /api/agent/scans',
        'GET /api/agent/scans/{scan_id}',
        'GET /api/agent/findings',
        'POST /api/agent/suggestions',
        'GET /api/agent/suggestions',
        'GET /api/agent/config',
        'POST /api/agent/webhooks',
        'GET /api/agent/webhooks',
        'DELETE /api/agent/webhooks',
        'GET /api/agent/docs',
        'GET /api/agent/sites',
        'GET /api/agent/sites/{site_id}',
        'PATCH /api/agent/sites/{site_id}',
        'GET /api/agent/scans/{scan_id}/sarif',
        'GET /api/agent/scans/{scan_id}/changes',
        'GET /api/agent/sites/{site_id}/expiries',
        'GET /api/agent/sites/{site_id}/mail',
        'GET /api/agent/sites/{site_id}/verification',
        'POST /api/agent/sites/{site_id}/verify',
        'GET /api/agent/findings/{finding_id}',
        'POST /api/agent/notifications/channels',
        'GET /api/agent/notifications/channels',
        'PATCH /api/agent/notifications/channels/{channel_id}',
        'DELETE /api/agent/notifications/channels/{channel_id}',
        'POST /api/agent/notifications/channels/{channel_id}/test',
        'POST /api/agent/notifications/rules',
        'GET /api/agent/notifications/rules',
        'PATCH /api/agent/notifications/rules/{rule_id}',
        'DELETE /api/agent/notifications/rules/{rule_id}',
        'GET /api/agent/notifications/deliveries',
      ].sort(),
    );
    expect(Object.keys(body.paths['/api/agent/scan'].post.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '403', '404', '429']),
    );
    expect(body.paths['/api/agent/scan'].post.responses['200']).toBeUndefined();
    expect(body.paths['/api/agent/scans'].get.responses['401'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
    expect(body.paths['/api/agent/auth'].post.security).toEqual([]);
    expect(body.paths['/api/agent/findings'].get.security).toEqual([{ bearerAuth: [] }]);
  });

  it('returns the same document from GET /api/agent/docs (read_docs) and a browsable page at /docs', async () => {
    const docs = await api.call('GET', '/api/agent/docs', { key: owner.key });
    expect(docs.status).toBe(200);
    expect(docs.body).toEqual((await api.call('GET', '/openapi.json')).body);
    const page = await api.call('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.body).toContain('swagger-ui');
    expect((await api.call('GET', '/docs/swagger-ui-bundle.js')).status).toBe(200);
  });
});

describe('typed tRPC client', () => {
  it('calls scans.list through /trpc with the same Bearer auth', async () => {
    const client = createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${api.url}/trpc`, headers: { authorization: `Bearer ${owner.key}` } })],
    });
    const result = await client.scans.list.query({ limit: 5 });
    expect(result.pagination).toEqual({ total: 0, limit: 5, offset: 0, has_more: false });
    const anonymous = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${api.url}/trpc` })] });
    await expect(anonymous.scans.list.query()).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' } });
  });

  it('types numeric inputs as numbers and explains invalid input in the same Dutch words as REST, field by field', async () => {
    const client = createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${api.url}/trpc`, headers: { authorization: `Bearer ${owner.key}` } })],
    });
    // @ts-expect-error limit is a number for typed clients (REST query strings are coerced)
    const typed = () => client.findings.list.query({ limit: 'abc' });
    await expect(typed()).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
    const rest = await api.call('GET', '/api/agent/findings?limit=500', { key: owner.key });
    const failure: { message: string; data: { issues: unknown } } = await client.findings.list
      .query({ limit: 500 })
      .then(
        () => expect.fail('limit 500 must be refused'),
        (error: { message: string; data: { issues: unknown } }) => error,
      );
    expect(failure.message).toBe(rest.body.error);
    expect(failure.message).toMatch(/^Ongeldig verzoek: limit: /);
    expect(failure.data.issues).toEqual([{ path: 'limit', message: expect.any(String) }]);
  });

  it("answers plain GET queries exactly as tRPC's adapter does, and leaves batches and errors to it", async () => {
    const inputs = [
      `scans.list?input=${encodeURIComponent('{"limit":3}')}`,
      'findings.list',
      'config.get',
      `suggestions.list?input=${encodeURIComponent('{"status":"pending"}')}`,
    ];
    for (const path of inputs) {
      const fast = await api.call('GET', `/trpc/${path}`, { key: owner.key });
      const adapter = await api.call('GET', `/trpc/${path}`, {
        key: owner.key,
        headers: { 'trpc-accept': 'application/json' },
      });
      expect(fast.status).toBe(200);
      expect(fast.body).toEqual(adapter.body);
      // Fastify adds "; charset=utf-8" to the JSON it sends itself; JSON is UTF-8 either way.
      expect(fast.headers.get('content-type')!.split(';')[0]).toBe(adapter.headers.get('content-type'));
      expect(fast.headers.get('vary')).toBe(adapter.headers.get('vary'));
    }
    const invalid = await api.call('GET', `/trpc/scans.list?input=${encodeURIComponent('{"limit":500}')}`, {
      key: owner.key,
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatchObject({ data: { code: 'BAD_REQUEST', httpStatus: 400, path: 'scans.list' } });
    const anonymous = await api.call('GET', '/trpc/scans.list');
    expect(anonymous.body.error).toMatchObject({ data: { code: 'UNAUTHORIZED', httpStatus: 401 } });
    const batch = await api.call(
      'GET',
      `/trpc/scans.list,config.get?batch=1&input=${encodeURIComponent('{"0":{"limit":1}}')}`,
      { key: owner.key },
    );
    expect(batch.body).toHaveLength(2);
    expect(batch.body[0]).toMatchObject({ result: { data: { pagination: { limit: 1 } } } });
    const mutationByGet = await api.call('GET', '/trpc/suggestions.create', { key: owner.key });
    expect(mutationByGet.status).toBe(405);
  });

  it('keeps parsing strictly on /trpc after REST calls (no schema mutation by coercion)', async () => {
    await api.call('GET', '/api/agent/findings?limit=2', { key: owner.key });
    const client = createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${api.url}/trpc`, headers: { authorization: `Bearer ${owner.key}` } })],
    });
    const forbidden = () =>
      // @ts-expect-error the server must refuse what the client's types already forbid
      client.suggestions.create.mutate({ type: 'code_fix', title: 12345, description: 'Een geldige beschrijving' });
    await expect(forbidden()).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
  });
});
