import { describe, expect, it } from 'vitest';
import { startApi, seedTenant } from './support/api.ts';
import { rawSite } from './support/hostile-sites.ts';

describe('operations', () => {
  it('answers /readyz while the database answers, and 503 when it does not', async () => {
    const api = await startApi();
    expect((await api.call('GET', '/readyz')).body).toEqual({ status: 'ok' });
    await api.db.destroy();
    const down = await api.call('GET', '/readyz');
    expect(down.status).toBe(503);
    expect(Object.keys(down.body)).toEqual(['error']);
    await api.app.close();
  });

  it('keeps a plain incoming X-Request-Id, makes one otherwise, and returns it on every answer', async () => {
    const api = await startApi();
    try {
      expect(
        (await api.call('GET', '/healthz', { headers: { 'x-request-id': 'trace-42.a' } })).headers.get('x-request-id'),
      ).toBe('trace-42.a');
      expect((await api.call('GET', '/bestaat-niet')).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(
        (await api.call('GET', '/healthz', { headers: { 'x-request-id': 'a b\tc' } })).headers.get('x-request-id'),
      ).toMatch(/^[0-9a-f-]{36}$/);
      // Refusals too: a missing key, an invalid one, a URL the router cannot decode, a bad body.
      const refused = [
        await api.call('GET', '/api/agent/scans', { headers: { 'x-request-id': 'geen-sleutel' } }),
        await api.call('GET', '/api/agent/scans', {
          headers: { 'x-request-id': 'foute-sleutel', authorization: 'Bearer wsk_ongeldig' },
        }),
        await api.call('GET', '/api/agent/scans/%E0%A4%A', { headers: { 'x-request-id': 'kapotte-url' } }),
        await api.call('POST', '/api/agent/auth', {
          headers: { 'x-request-id': 'kapotte-json', 'content-type': 'application/json' },
          rawBody: '{',
        }),
      ];
      expect(refused.map((answer) => [answer.status, answer.headers.get('x-request-id')])).toEqual([
        [401, 'geen-sleutel'],
        [401, 'foute-sleutel'],
        [400, 'kapotte-url'],
        [400, 'kapotte-json'],
      ]);
    } finally {
      await api.close();
    }
  });

  it('serves Prometheus metrics: requests by route and status, scans by grade, deliveries, event-loop delay', async () => {
    const api = await startApi();
    const site = await rawSite((socket) =>
      socket.end(
        'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 13\r\nConnection: close\r\n\r\n<p>Winkel</p>',
      ),
    );
    try {
      const tenant = await seedTenant(api.db, site.url);
      await api.call('GET', '/api/agent/scans', { key: tenant.key });
      const scan = await api.call('POST', '/api/agent/scan', { key: tenant.key, body: { site_id: tenant.siteId } });
      // MCP answers are hijacked from Fastify; they are counted all the same.
      const mcp = await api.call('POST', '/mcp', {
        key: tenant.key,
        headers: { accept: 'application/json, text/event-stream' },
        body: {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
        },
      });
      expect(mcp.status).toBe(200);
      const metrics = await api.call('GET', '/metrics');
      expect(metrics.status).toBe(200);
      expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(metrics.body).toMatch(
        /http_request_duration_seconds_count\{method="GET",route="\/api\/agent\/scans",status="200"\} [1-9]/,
      );
      expect(metrics.body).toMatch(
        /http_request_duration_seconds_count\{method="POST",route="\/mcp",status="200"\} [1-9]/,
      );
      expect(metrics.body).toContain(`scanner_scans_total{grade="${scan.body.grade}"}`);
      expect(metrics.body).toContain('# TYPE webhook_deliveries_total counter');
      expect(metrics.body).toMatch(/nodejs_eventloop_lag_p99_seconds \d/);
    } finally {
      await site.close();
      await api.close();
    }
  });
});
