import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTenant, startApi, type Tenant, type TestApi } from './support/api.ts';
import { leakyWordPressSite } from './support/sites.ts';
import type { FixtureSite } from './support/fixture-sites.ts';

/** A site whose page answers at once and every other path only after 1.5 seconds: a scan of it takes a while. */
async function slowSite() {
  const requests: number[] = [];
  const server = http.createServer((req, res) => {
    requests.push(Date.now());
    if (req.url === '/')
      return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html><body>traag</body></html>');
    const timer = setTimeout(() => res.writeHead(404).end(), 1_500);
    res.on('close', () => clearTimeout(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let api: TestApi;
let fast: FixtureSite;
let slow: Awaited<ReturnType<typeof slowSite>>;
let owner: Tenant;
let slowTenant: Tenant;
beforeAll(async () => {
  [api, fast, slow] = await Promise.all([startApi(), leakyWordPressSite(), slowSite()]);
  owner = await seedTenant(api.db, fast.url);
  slowTenant = await seedTenant(api.db, slow.url);
});
afterAll(async () => Promise.all([api.close(), fast.close(), slow.close()]));

const connect = async (key: string) => {
  const client = new Client({ name: 'test-agent', version: '2.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', api.url), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
};
const scansOf = async (siteId: string) =>
  (await api.db.selectFrom('scans').select('id').where('site_id', '=', siteId).execute()).length;

/** Waits until the slow site has been asked for more than its page, then stops the scan and checks that it asks nothing more. */
async function expectStoppedAfter(stop: () => void) {
  const before = slow.requests.length;
  for (let i = 0; i < 100 && slow.requests.length <= before + 1; i++) await delay(50);
  expect(slow.requests.length).toBeGreaterThan(before + 1);
  stop();
  await delay(1_000);
  const settled = slow.requests.length;
  await delay(1_500);
  expect(slow.requests.length).toBe(settled);
}

describe('scan_site progress and cancellation', () => {
  it('sends increasing progress with the stages only, no text of the site', async () => {
    const client = await connect(owner.key);
    try {
      const updates: Array<{ progress: number; total?: number; message?: string }> = [];
      const result = await client.callTool(
        { name: 'scan_site', arguments: { site_id: owner.siteId } },
        { onprogress: (p) => updates.push(p) },
      );
      expect(result.isError).toBeFalsy();
      expect(updates.map((u) => u.progress)).toEqual([1, 2, 3, 4]);
      expect(updates.every((u) => u.total === 4 && !u.message?.includes('127.0.0.1'))).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('stops the scan when the call is cancelled: the site gets no further request and nothing is stored', {
    timeout: 20_000,
  }, async () => {
    const client = await connect(slowTenant.key);
    const controller = new AbortController();
    const stored = await scansOf(slowTenant.siteId);
    try {
      const call = client
        .callTool({ name: 'scan_site', arguments: { site_id: slowTenant.siteId } }, { signal: controller.signal })
        .catch((error: unknown) => error);
      await expectStoppedAfter(() => controller.abort());
      expect(await call).toBeInstanceOf(Error);
      expect(await scansOf(slowTenant.siteId)).toBe(stored);
    } finally {
      await client.close();
    }
  });

  it('stops a REST scan whose client disconnects, and stores nothing', { timeout: 20_000 }, async () => {
    const controller = new AbortController();
    const stored = await scansOf(slowTenant.siteId);
    const request = fetch(`${api.url}/api/agent/scan`, {
      method: 'POST',
      signal: controller.signal,
      headers: { authorization: `Bearer ${slowTenant.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: slowTenant.siteId }),
    }).catch((error: unknown) => error);
    await expectStoppedAfter(() => controller.abort());
    expect(await request).toBeInstanceOf(Error);
    expect(await scansOf(slowTenant.siteId)).toBe(stored);
  });

  it('lets a key cancel only its own calls', { timeout: 30_000 }, async () => {
    const client = await connect(slowTenant.key);
    const controller = new AbortController();
    try {
      const call = client
        .callTool({ name: 'scan_site', arguments: { site_id: slowTenant.siteId } }, { signal: controller.signal })
        .catch((error: unknown) => error);
      const before = slow.requests.length;
      for (let i = 0; i < 100 && slow.requests.length <= before + 1; i++) await delay(50);
      // Another key names every likely request id: the scan goes on (its probes keep coming after the 1.5 s answers).
      for (const requestId of [0, 1, 2, 3, 4, 5]) {
        const foreign = await fetch(new URL('/mcp', api.url), {
          method: 'POST',
          headers: {
            authorization: `Bearer ${owner.key}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId, reason: 'niet van mij' },
          }),
        });
        expect(foreign.status).toBeLessThan(300);
      }
      const afterForeign = slow.requests.length;
      for (let i = 0; i < 100 && slow.requests.length <= afterForeign; i++) await delay(50);
      expect(slow.requests.length).toBeGreaterThan(afterForeign);
      await expectStoppedAfter(() => controller.abort());
      expect(await call).toBeInstanceOf(Error);
    } finally {
      await client.close();
    }
  });
});
