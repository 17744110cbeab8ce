import http from 'node:http';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MCP_TOOLS } from '../routers/mcp-tools.ts';
import { seedTenant, startApi, type Tenant, type TestApi } from './support/api.ts';
import type { FixtureSite } from './support/fixture-sites.ts';
import { leakyWordPressSite } from './support/sites.ts';

// The MCP server at /mcp, through the official SDK clients: the 2025-11-25 one (v1 `Client`, which
// opens with initialize) and the v2 one (the 2026-07-28 protocol, stateless).

let api: TestApi;
let site: FixtureSite;
let owner: Tenant;
let readOnly: Tenant;
let stranger: Tenant;
beforeAll(async () => {
  [api, site] = await Promise.all([startApi(), leakyWordPressSite()]);
  owner = await seedTenant(api.db, site.url);
  readOnly = await seedTenant(api.db, site.url, { permissions: ['read_scans', 'read_findings'] });
  stranger = await seedTenant(api.db, 'https://vreemde.example/');
});
afterAll(async () => Promise.all([api.close(), site.close()]));

type AnyClient = {
  listTools: () => Promise<{
    tools: Array<{
      name: string;
      description?: string;
      inputSchema: object;
      outputSchema?: object;
      annotations?: Record<string, unknown>;
    }>;
  }>;
  callTool: (params: { name: string; arguments?: Record<string, unknown> }) => Promise<unknown>;
  close: () => Promise<void>;
};
type ToolResult = {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, any>;
};

const endpoint = () => new URL('/mcp', api.url);
const headersFor = (key: string) => ({ authorization: `Bearer ${key}` });

const CLIENTS: Record<string, (key: string) => Promise<AnyClient>> = {
  '2025-11-25 client (SDK 1.x)': async (key) => {
    const client = new ClientV1({ name: 'test-agent', version: '1.0.0' });
    await client.connect(new TransportV1(endpoint(), { requestInit: { headers: headersFor(key) } }));
    return {
      listTools: () => client.listTools(),
      callTool: (params) => client.callTool(params),
      close: () => client.close(),
    };
  },
  '2026-07-28 client (SDK v2)': async (key) => {
    const client = new ClientV2({ name: 'test-agent', version: '2.0.0' });
    await client.connect(new TransportV2(endpoint(), { requestInit: { headers: headersFor(key) } }));
    return {
      listTools: () => client.listTools(),
      callTool: (params) => client.callTool(params),
      close: () => client.close(),
    };
  },
};

describe.each(Object.entries(CLIENTS))('%s', (_name, connect) => {
  const call = async (client: AnyClient, name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;
  const errorText = (result: ToolResult) => JSON.parse(result.content[0]!.text!).error as string;

  it('lists the tools with descriptions, schemas and annotations, scans a local site and reads its findings', async () => {
    const client = await connect(owner.key);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(MCP_TOOLS.map((t) => t.name).sort());
      const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
      for (const name of [
        'list_sites',
        'get_site',
        'scan_site',
        'list_scans',
        'get_scan',
        'search_findings',
        'submit_suggestion',
        'list_suggestions',
        'get_config',
      ])
        expect(byName[name], name).toBeDefined();
      expect(byName.scan_site!.annotations).toMatchObject({ openWorldHint: true, readOnlyHint: false });
      expect(byName.get_scan!.annotations).toMatchObject({ readOnlyHint: true });
      expect(byName.delete_webhook!.annotations).toMatchObject({ destructiveHint: true });
      expect(byName.scan_site!.description).toMatch(/Scan starten/);
      expect(byName.scan_site!.inputSchema).toMatchObject({
        type: 'object',
        properties: { site_id: expect.any(Object) },
      });
      for (const tool of tools) expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object' });

      const scanned = await call(client, 'scan_site', { site_id: owner.siteId });
      expect(scanned.isError).toBeFalsy();
      expect(scanned.structuredContent).toMatchObject({
        scan_id: expect.any(String),
        grade: expect.stringMatching(/zwak|kritiek/),
      });
      // The same JSON as text, in blocks of at most 4,000 characters, for clients that read only text.
      expect(
        JSON.parse(
          scanned.content
            .filter((block) => block.type === 'text')
            .map((block) => block.text)
            .join(''),
        ),
      ).toEqual(scanned.structuredContent);
      const scan = await call(client, 'get_scan', { scan_id: scanned.structuredContent!.scan_id });
      expect(scan.structuredContent!.findings.map((f: { finding_type: string }) => f.finding_type)).toEqual(
        expect.arrayContaining(['exposed_git_config', 'exposed_env_file']),
      );
      // What the scan covered, as the REST detail shows it.
      expect(scan.structuredContent!.coverage).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ test: 'exposures', status: 'completed', reason: null }),
          expect.objectContaining({ test: 'caa', status: 'not_applicable', reason: 'geen domeinnaam' }),
        ]),
      );
      expect(scan.structuredContent!.changes.unverified).toEqual([]);
      const findings = await call(client, 'search_findings', { severity: 'CRITICAL' });
      expect(findings.structuredContent!.findings.length).toBeGreaterThan(0);
      const suggestion = await call(client, 'submit_suggestion', {
        type: 'config_change',
        title: 'Blokkeer /.git',
        description: 'Weiger /.git/ in de webserver (location ~ /\\.git { deny all; }).',
        metadata: { finding_id: findings.structuredContent!.findings[0].id },
      });
      expect(suggestion.isError, JSON.stringify(suggestion)).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it('answers every tool with structuredContent that validates against its outputSchema (lists wrapped)', async () => {
    const client = await connect(owner.key);
    try {
      const { tools } = await client.listTools();
      const scanId =
        (await call(client, 'list_scans')).structuredContent!.scans[0]?.id ??
        (await call(client, 'scan_site', { site_id: owner.siteId })).structuredContent!.scan_id;
      const findingId = (await call(client, 'search_findings')).structuredContent!.findings[0].id;
      const args: Record<string, Record<string, unknown>> = {
        get_site: { site_id: owner.siteId },
        get_scan: { scan_id: scanId },
        get_scan_sarif: { scan_id: scanId },
        get_scan_changes: { scan_id: scanId },
        list_expiries: { site_id: owner.siteId },
        get_site_mail: { site_id: owner.siteId },
        get_site_verification: { site_id: owner.siteId },
        verify_site: { site_id: owner.siteId, method: 'file' },
        scan_site: { site_id: owner.siteId },
        get_finding: { finding_id: findingId },
      };
      for (const tool of tools.filter(
        (t) => !['submit_suggestion', 'create_webhook', 'delete_webhook'].includes(t.name),
      )) {
        const result = await call(client, tool.name, args[tool.name] ?? {});
        expect(result.isError, `${tool.name}: ${JSON.stringify(result.content)}`).toBeFalsy();
        expect(typeof result.structuredContent, tool.name).toBe('object');
        const schema = z.fromJSONSchema(tool.outputSchema as Record<string, unknown>);
        expect(schema.safeParse(result.structuredContent).success, tool.name).toBe(true);
        const text = result.content.filter((block) => block.type === 'text');
        for (const block of text) expect(block.text!.length, tool.name).toBeLessThanOrEqual(5_000);
        expect(JSON.parse(text.map((block) => block.text).join('')), tool.name).toEqual(result.structuredContent);
        // Paged lists say where the next page starts; list_expiries is one short, unpaged list.
        if (MCP_TOOLS.find((t) => t.name === tool.name)?.list) {
          expect(result.structuredContent, tool.name).toMatchObject({
            total: expect.any(Number),
            next_offset: expect.toSatisfy((v: unknown) => v === null || typeof v === 'number'),
          });
        }
      }
    } finally {
      await client.close();
    }
  });

  it('refuses scan_site to a key without write_scans as a tool error, in Dutch', async () => {
    const client = await connect(readOnly.key);
    try {
      const result = await call(client, 'scan_site', { site_id: readOnly.siteId });
      expect(result.isError).toBe(true);
      expect(errorText(result)).toMatch(/write_scans/);
    } finally {
      await client.close();
    }
  });

  it("answers another tenant's ids as not found, and bad input as a Dutch validation error", async () => {
    const client = await connect(stranger.key);
    try {
      const result = await call(client, 'get_site', { site_id: owner.siteId });
      expect(result.isError).toBe(true);
      expect(errorText(result)).toMatch(/niet gevonden/i);
      const invalid = await call(client, 'get_scan', { scan_id: 'geen-uuid' });
      expect(invalid.isError).toBe(true);
      expect(errorText(invalid)).toMatch(/^Ongeldig verzoek: scan_id/);
    } finally {
      await client.close();
    }
  });

  it('refuses the call after rate_limit calls per minute', async () => {
    const limited = await seedTenant(api.db, 'https://beperkt.example/', { rateLimit: 3 });
    const client = await connect(limited.key);
    try {
      const results = [];
      for (let i = 0; i < 4; i++) results.push(await call(client, 'list_sites'));
      expect(results.slice(0, 3).map((r) => r.isError ?? false)).toEqual([false, false, false]);
      expect(results[3]!.isError).toBe(true);
      expect(errorText(results[3]!)).toMatch(/Te veel verzoeken/);
    } finally {
      await client.close();
    }
  });
});

describe('/mcp over plain HTTP', () => {
  const post = (
    headers: Record<string, string>,
    body: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
  ) =>
    fetch(endpoint(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });

  it('answers a missing or invalid key 401 with WWW-Authenticate: Bearer (invalid_token for a wrong key) and the error shape', async () => {
    const expected: Array<[Record<string, string>, string]> = [
      [{}, 'Bearer realm="mcp"'],
      [{ authorization: 'Bearer sak_ongeldig' }, 'Bearer realm="mcp", error="invalid_token"'],
    ];
    for (const [headers, challenge] of expected) {
      const response = await post(headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(challenge);
      expect(await response.json()).toEqual({ error: expect.any(String) });
    }
    // No OAuth metadata is advertised: clients then use the configured header.
    expect((await fetch(new URL('/.well-known/oauth-protected-resource', endpoint()))).status).toBe(404);
  });

  it('refuses DNS rebinding: a foreign Host with a matching Origin is 403, whatever the key', async () => {
    const url = new URL(endpoint());
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {
            host: 'evil.example.com',
            origin: 'http://evil.example.com',
            ...headersFor(owner.key),
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }));
    });
    expect(status).toBe(403);
  });

  it("refuses a foreign Origin with 403, and carries the service's headers on answers", async () => {
    expect((await post({ ...headersFor(owner.key), origin: 'https://kwaadaardig.example' })).status).toBe(403);
    const response = await post(
      { ...headersFor(owner.key), 'x-request-id': 'mcp-test-1', 'mcp-protocol-version': '2025-11-25' },
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
      },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('mcp-test-1');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers a malformed protocol message with a JSON-RPC error, not a tool result', async () => {
    const response = await post(headersFor(owner.key), { jsonrpc: '2.0', id: 7, method: 'tools/call' });
    // The 2025 stateless leg answers as one server-sent event; the message inside is the same.
    const body = await response.text();
    expect(body).toMatch(/"id":7,"error":\{"code":-32\d{3}/);
    expect(body).not.toMatch(/isError/);
  });
});

describe('scan reports as resources', () => {
  it("offers scan://{scan_id}/report and /sarif, links them from scan_site and get_scan, and answers -32602 for a scan that is not the key's", async () => {
    const client = new ClientV2({ name: 'test-agent', version: '2.0.0' });
    await client.connect(new TransportV2(endpoint(), { requestInit: { headers: headersFor(owner.key) } }));
    try {
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((t) => [t.uriTemplate, t.mimeType]).sort()).toEqual([
        ['scan://{scan_id}/report', 'application/json'],
        ['scan://{scan_id}/sarif', 'application/sarif+json'],
      ]);
      const scanned = (await client.callTool({ name: 'scan_site', arguments: { site_id: owner.siteId } })) as Omit<
        ToolResult,
        'content'
      > & { content: Array<{ type: string; uri?: string }> };
      const scanId = scanned.structuredContent!.scan_id as string;
      expect(scanned.content.filter((block) => block.type === 'resource_link').map((block) => block.uri)).toEqual([
        `scan://${scanId}/report`,
        `scan://${scanId}/sarif`,
      ]);
      const got = (await client.callTool({ name: 'get_scan', arguments: { scan_id: scanId } })) as {
        content: Array<{ type: string; uri?: string }>;
      };
      expect(
        got.content.some((block) => block.type === 'resource_link' && block.uri === `scan://${scanId}/report`),
      ).toBe(true);

      const report = await client.readResource({ uri: `scan://${scanId}/report` });
      expect(JSON.parse((report.contents[0] as { text: string }).text)).toMatchObject({
        id: scanId,
        findings: expect.any(Array),
      });
      const sarif = await client.readResource({ uri: `scan://${scanId}/sarif` });
      expect(sarif.contents[0]!.mimeType).toBe('application/sarif+json');
      expect(JSON.parse((sarif.contents[0] as { text: string }).text)).toMatchObject({ version: '2.1.0' });

      const stranger = new ClientV2({ name: 'test-agent', version: '2.0.0' });
      await stranger.connect(new TransportV2(endpoint(), { requestInit: { headers: headersFor(readOnly.key) } }));
      try {
        await expect(stranger.readResource({ uri: `scan://${scanId}/report` })).rejects.toMatchObject({ code: -32602 });
        await expect(
          client.readResource({ uri: 'scan://00000000-0000-4000-8000-000000000000/report' }),
        ).rejects.toMatchObject({ code: -32602 });
      } finally {
        await stranger.close();
      }
    } finally {
      await client.close();
    }
  });
});
