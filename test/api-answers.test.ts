import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedTenant, startApi, type Tenant, type TestApi } from './support/api.ts';
import { startSite, type FixtureSite } from './support/fixture-sites.ts';

// Every endpoint, REST and /trpc, success and error, answered in a fixed order and compared with the
// answers recorded before the architecture redesign (test/data/api-answers.json): status, headers
// and body must stay byte-identical once ids, times, ports and secrets are replaced by placeholders.
// Scheduled scans (issue 13) added fields and the PATCH steps; the file was re-recorded then, with
// a diff that only adds.

let api: TestApi;
let site: FixtureSite;
let owner: Tenant;
let stranger: Tenant;
let reader: Tenant;
let limited: Tenant;

beforeAll(async () => {
  site = await startSite({
    routes: {
      '/': {
        headers: { 'content-type': 'text/html; charset=utf-8', server: 'nginx/1.18.0', 'x-powered-by': 'PHP/7.4.3' },
        body: '<!doctype html><html><body><h1>Winkel</h1></body></html>',
      },
      '/.env': { headers: { 'content-type': 'text/plain' }, body: 'APP_ENV=production\nDB_PASSWORD=hunter2\n' },
    },
  });
  api = await startApi();
  owner = await seedTenant(api.db, site.url);
  stranger = await seedTenant(api.db, 'https://stranger.example/');
  reader = await seedTenant(api.db, 'https://reader.example/', { permissions: ['read_scans'] });
  limited = await seedTenant(api.db, 'https://limited.example/', { rateLimit: 2 });
});
afterAll(async () => {
  await api.close();
  await site.close();
});

const SECONDS_HEADERS = new Set(['x-ratelimit-reset', 'retry-after']);
const VOLATILE_HEADERS = new Set([
  'date',
  'x-request-id',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
]);

/** Replaces what differs between runs by stable placeholders; ids keep their order of appearance. */
function normalizer() {
  const ids = new Map<string, string>();
  return (text: string) =>
    text
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
        if (!ids.has(id)) ids.set(id, `<id${ids.size + 1}>`);
        return ids.get(id)!;
      })
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>')
      .replace(/sak_[0-9A-Za-z]{46}/g, '<key>')
      .replace(/whsec_[A-Za-z0-9+/=]+/g, '<secret>')
      .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
      .replace(/over \d+ seconden/g, 'over <n> seconden')
      // The shipped data's age counts from its own date: it grows by one each day the suite runs,
      // and turns stale after VULNDATA_MAX_AGE_DAYS.
      .replace(/"age_days":\d+/g, '"age_days":<n>')
      .replace(/"stale":(true|false)/g, '"stale":<bool>');
}

/**
 * Findings of equal severity and time are ordered by their random ids, so lists are put in a fixed
 * order before comparing. The JSON must be compact as sent, so re-serialising changes no byte else.
 */
function canonical(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  expect(JSON.stringify(parsed)).toBe(text);
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'findings' && Array.isArray(value))
        value.sort((a, b) =>
          `${a.severity} ${a.finding_type} ${a.endpoint}`.localeCompare(
            `${b.severity} ${b.finding_type} ${b.endpoint}`,
          ),
        );
      walk(value);
    }
  };
  walk(parsed);
  return JSON.stringify(parsed);
}

interface Step {
  name: string;
  method: string;
  path: string | (() => string);
  key?: () => string;
  body?: () => unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  /** Large bodies (the OpenAPI document) are compared by hash. */
  hashBody?: boolean;
}

const json = { 'content-type': 'application/json' };
const MISSING = '00000000-0000-4000-8000-000000000000';
const trpcInput = (value: unknown) => `input=${encodeURIComponent(JSON.stringify(value))}`;
let scanId = '';
let webhookId = '';

const STEPS: Step[] = [
  { name: 'auth ok', method: 'POST', path: '/api/agent/auth', body: () => ({ api_key: owner.key }) },
  {
    name: 'auth unknown key',
    method: 'POST',
    path: '/api/agent/auth',
    body: () => ({ api_key: `sak_${'A'.repeat(46)}` }),
  },
  { name: 'auth missing field', method: 'POST', path: '/api/agent/auth', body: () => ({}) },
  { name: 'no key', method: 'GET', path: '/api/agent/scans' },
  { name: 'bad key', method: 'GET', path: '/api/agent/scans', key: () => 'sak_nope' },
  { name: 'key in url', method: 'GET', path: () => `/api/agent/scans?api_key=${owner.key}` },
  { name: 'missing permission', method: 'GET', path: '/api/agent/findings', key: () => reader.key },
  { name: 'unknown route', method: 'GET', path: '/api/agent/nope', key: () => owner.key },
  { name: 'config', method: 'GET', path: '/api/agent/config', key: () => owner.key },
  { name: 'docs', method: 'GET', path: '/api/agent/docs', key: () => owner.key, hashBody: true },
  { name: 'openapi.json', method: 'GET', path: '/openapi.json', hashBody: true },
  { name: 'sites list', method: 'GET', path: '/api/agent/sites', key: () => owner.key },
  { name: 'site get', method: 'GET', path: () => `/api/agent/sites/${owner.siteId}`, key: () => owner.key },
  {
    name: 'site of another tenant',
    method: 'GET',
    path: () => `/api/agent/sites/${stranger.siteId}`,
    key: () => owner.key,
  },
  { name: 'site bad id', method: 'GET', path: '/api/agent/sites/abc', key: () => owner.key },
  {
    name: 'scan ok',
    method: 'POST',
    path: '/api/agent/scan',
    key: () => owner.key,
    body: () => ({ site_id: owner.siteId }),
  },
  {
    name: 'scan again',
    method: 'POST',
    path: '/api/agent/scan',
    key: () => owner.key,
    body: () => ({ site_id: owner.siteId }),
  },
  {
    name: 'scan missing site',
    method: 'POST',
    path: '/api/agent/scan',
    key: () => owner.key,
    body: () => ({ site_id: MISSING }),
  },
  {
    name: 'scan other host',
    method: 'POST',
    path: '/api/agent/scan',
    key: () => owner.key,
    body: () => ({ site_id: owner.siteId, url: 'https://evil.example/' }),
  },
  {
    name: 'scan ftp',
    method: 'POST',
    path: '/api/agent/scan',
    key: () => owner.key,
    body: () => ({ site_id: owner.siteId, url: 'ftp://127.0.0.1/' }),
  },
  { name: 'scan no body', method: 'POST', path: '/api/agent/scan', key: () => owner.key, rawBody: '{', headers: json },
  {
    name: 'scan wrong type',
    method: 'POST',
    path: '/api/agent/scan',
    key: () => owner.key,
    rawBody: 'site_id=1',
    headers: { 'content-type': 'text/plain' },
  },
  { name: 'scans list', method: 'GET', path: '/api/agent/scans', key: () => owner.key },
  { name: 'scans by grade', method: 'GET', path: '/api/agent/scans?grade=zwak&limit=1', key: () => owner.key },
  { name: 'scans bad grade', method: 'GET', path: '/api/agent/scans?grade=Z', key: () => owner.key },
  { name: 'scans bad limit', method: 'GET', path: '/api/agent/scans?limit=0', key: () => owner.key },
  { name: 'scan get', method: 'GET', path: () => `/api/agent/scans/${scanId}`, key: () => owner.key },
  { name: 'scan of another tenant', method: 'GET', path: () => `/api/agent/scans/${scanId}`, key: () => stranger.key },
  { name: 'findings', method: 'GET', path: '/api/agent/findings', key: () => owner.key },
  {
    name: 'findings filtered',
    method: 'GET',
    path: '/api/agent/findings?severity=CRITICAL&category=EXPOSED_ENDPOINT&status=OPEN',
    key: () => owner.key,
  },
  { name: 'findings search', method: 'GET', path: '/api/agent/findings?search=Referrer', key: () => owner.key },
  { name: 'findings bad status', method: 'GET', path: '/api/agent/findings?status=bogus', key: () => owner.key },
  {
    name: 'suggestion create',
    method: 'POST',
    path: '/api/agent/suggestions',
    key: () => owner.key,
    body: () => ({
      type: 'config_change',
      title: 'HSTS aanzetten',
      description: 'Voeg Strict-Transport-Security toe.',
      metadata: { a: 1 },
    }),
  },
  {
    name: 'suggestion invalid',
    method: 'POST',
    path: '/api/agent/suggestions',
    key: () => owner.key,
    body: () => ({ type: 'hotfix', title: 'x', description: 'y' }),
  },
  { name: 'suggestions list', method: 'GET', path: '/api/agent/suggestions', key: () => owner.key },
  {
    name: 'webhook create',
    method: 'POST',
    path: '/api/agent/webhooks',
    key: () => owner.key,
    body: () => ({ url: 'https://hooks.example.nl/in', events: ['scan_completed', 'scan_completed'] }),
  },
  {
    name: 'webhook http',
    method: 'POST',
    path: '/api/agent/webhooks',
    key: () => owner.key,
    body: () => ({ url: 'http://hooks.example.nl/in', events: ['scan_completed'] }),
  },
  {
    name: 'webhook bad event',
    method: 'POST',
    path: '/api/agent/webhooks',
    key: () => owner.key,
    body: () => ({ url: 'https://hooks.example.nl/in', events: ['nope'] }),
  },
  { name: 'webhooks list', method: 'GET', path: '/api/agent/webhooks', key: () => owner.key },
  { name: 'webhook delete', method: 'DELETE', path: () => `/api/agent/webhooks?id=${webhookId}`, key: () => owner.key },
  {
    name: 'webhook delete again',
    method: 'DELETE',
    path: () => `/api/agent/webhooks?id=${webhookId}`,
    key: () => owner.key,
  },
  { name: 'rate limit 1', method: 'GET', path: '/api/agent/sites', key: () => limited.key },
  { name: 'rate limit 2', method: 'GET', path: '/api/agent/sites', key: () => limited.key },
  { name: 'rate limit 3', method: 'GET', path: '/api/agent/sites', key: () => limited.key },
  {
    name: 'trpc query',
    method: 'GET',
    path: () => `/trpc/scans.list?${trpcInput({ limit: 1 })}`,
    key: () => owner.key,
  },
  { name: 'trpc query no input', method: 'GET', path: '/trpc/config.get', key: () => owner.key },
  {
    name: 'trpc site get',
    method: 'GET',
    path: () => `/trpc/sites.get?${trpcInput({ site_id: owner.siteId })}`,
    key: () => owner.key,
  },
  {
    name: 'trpc bad input',
    method: 'GET',
    path: () => `/trpc/sites.get?${trpcInput({ site_id: 'x' })}`,
    key: () => owner.key,
  },
  {
    name: 'trpc not found',
    method: 'GET',
    path: () => `/trpc/scans.get?${trpcInput({ scan_id: MISSING })}`,
    key: () => owner.key,
  },
  { name: 'trpc no key', method: 'GET', path: '/trpc/config.get' },
  { name: 'trpc forbidden', method: 'GET', path: '/trpc/findings.list', key: () => reader.key },
  {
    name: 'trpc batch',
    method: 'GET',
    path: () =>
      `/trpc/sites.list,findings.list?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: {}, 1: { category: 'SSL_TLS', limit: 5 } }))}`,
    key: () => owner.key,
  },
  {
    name: 'trpc mutation',
    method: 'POST',
    path: '/trpc/suggestions.create',
    key: () => owner.key,
    body: () => ({ type: 'code_fix', title: 'CSP toevoegen', description: 'Een strikte CSP voor de winkel.' }),
  },
  {
    name: 'trpc scan',
    method: 'POST',
    path: '/trpc/scans.trigger',
    key: () => owner.key,
    body: () => ({ site_id: owner.siteId, url: 'https://evil.example/' }),
  },
  { name: 'trpc auth', method: 'POST', path: '/trpc/auth.validate', body: () => ({ api_key: 'sak_x' }) },
  { name: 'trpc unknown procedure', method: 'GET', path: '/trpc/nope.get', key: () => owner.key },
  { name: 'trpc rate limited', method: 'GET', path: '/trpc/sites.list', key: () => limited.key },
  // Added with scheduled scans (issue 13): answers recorded then.
  {
    name: 'site schedule',
    method: 'PATCH',
    path: () => `/api/agent/sites/${owner.siteId}`,
    key: () => owner.key,
    body: () => ({ scan_interval_hours: 24 }),
  },
  {
    name: 'site schedule out of range',
    method: 'PATCH',
    path: () => `/api/agent/sites/${owner.siteId}`,
    key: () => owner.key,
    body: () => ({ scan_interval_hours: 169 }),
  },
  {
    name: 'site schedule without permission',
    method: 'PATCH',
    path: () => `/api/agent/sites/${reader.siteId}`,
    key: () => reader.key,
    body: () => ({ scan_interval_hours: 24 }),
  },
  {
    name: 'site schedule off',
    method: 'PATCH',
    path: () => `/api/agent/sites/${owner.siteId}`,
    key: () => owner.key,
    body: () => ({ scan_interval_hours: null }),
  },
];

it('answers every endpoint exactly as before the redesign', async () => {
  const normalize = normalizer();
  const answers: unknown[] = [];
  for (const step of STEPS) {
    const path = typeof step.path === 'function' ? step.path() : step.path;
    const headers: Record<string, string> = { ...step.headers };
    if (step.key) headers.authorization = `Bearer ${step.key()}`;
    let body = step.rawBody;
    if (step.body) {
      body = JSON.stringify(step.body());
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${api.url}${path}`, { method: step.method, headers, body });
    const text = await response.text();
    if (step.name === 'scan ok') scanId = JSON.parse(text).scan_id;
    if (step.name === 'webhook create') webhookId = JSON.parse(text).webhook.id;
    const kept = [...response.headers]
      .filter(([name]) => !VOLATILE_HEADERS.has(name))
      .sort(([a], [b]) => a.localeCompare(b));
    answers.push({
      step: step.name,
      status: response.status,
      // Seconds left in a window depend on how fast the run is, not on the code.
      headers: Object.fromEntries(
        kept.map(([name, value]) => [name, SECONDS_HEADERS.has(name) ? '<seconds>' : normalize(value)]),
      ),
      body: step.hashBody ? createHash('sha256').update(text).digest('hex') : normalize(canonical(text)),
    });
  }
  await expect(`${JSON.stringify(answers, null, 1)}\n`).toMatchFileSnapshot('data/api-answers.json');
});
