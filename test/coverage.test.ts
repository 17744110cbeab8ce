import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../bin/admin-cli.ts';
import { seedTenant, startApi, type Tenant, type TestApi } from './support/api.ts';
import { startSite, type FixtureSite, type SiteDefinition } from './support/fixture-sites.ts';
import { startReceiver, waitFor, type Receiver } from './support/receiver.ts';
import { B64URL, inBundle, random } from './support/secret-samples.ts';

// A scan knows what it covered, end to end: a weak site scanned through the REST API, then scanned
// with exposure probes switched off by the admin CLI, with its script too slow to answer, and while
// it is down. Each of those leaves the earlier findings OPEN, sends no finding_resolved and says in
// `coverage` what did not run and why; the next complete scan lists nothing as regressed; a real fix
// resolves them, with webhooks.

const TIMEOUT_MS = 800;
const OPENAI_KEY = `sk-proj-${random(74, B64URL)}T3BlbkFJ${random(74, B64URL)}`;
const PAGE = '<!doctype html><html><head><script src="/app.js"></script></head><body>Winkel</body></html>';
const WATCHED = ['exposed_env_file', 'exposed_git_config', 'client_secret_openai'];

let api: TestApi;
let site: FixtureSite;
let tenant: Tenant;
let receiver: Receiver;
const routes: SiteDefinition['routes'] = {
  '/': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: PAGE },
  '/app.js': { headers: { 'content-type': 'application/javascript' }, body: inBundle(OPENAI_KEY) },
  '/.env': { headers: { 'content-type': 'text/plain' }, body: 'APP_ENV=production\nDB_PASSWORD=hunter2hunter2\n' },
  '/.git/config': {
    headers: { 'content-type': 'text/plain' },
    body: '[core]\n\trepositoryformatversion = 0\n\tbare = false\n[remote "origin"]\n\turl = git@example.nl:winkel.git\n',
  },
};

async function scan(): Promise<Record<string, any>> {
  const created = await api.call('POST', '/api/agent/scan', { key: tenant.key, body: { site_id: tenant.siteId } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const detail = await api.call('GET', `/api/agent/scans/${created.body.scan_id}`, { key: tenant.key });
  expect(detail.status).toBe(200);
  return detail.body;
}

/** The site's watched findings by type, as GET /findings lists them now. */
async function watched(): Promise<Record<string, { id: string; status: string }>> {
  const list = await api.call('GET', '/api/agent/findings?limit=100', { key: tenant.key });
  return Object.fromEntries(
    list.body.findings
      .filter((f: { finding_type: string }) => WATCHED.includes(f.finding_type))
      .map((f: { finding_type: string; id: string; status: string }) => [
        f.finding_type,
        { id: f.id, status: f.status },
      ]),
  );
}

const coverageOf = (detail: Record<string, any>, test: string) =>
  detail.coverage.filter((c: { test: string }) => c.test === test);

async function setFlag(enabled: boolean) {
  let out = '';
  const code = await runAdmin(['flag', 'set', '--key', 'exposure_probes', '--enabled', String(enabled), '--json'], {
    stdout: {
      write: (text: string) => {
        out += text;
        return true;
      },
    },
    stderr: { write: () => true },
    env: { ...api.dbEnv, LOG_LEVEL: 'silent' },
  });
  expect(code, out).toBe(0);
}

/** Waits until the scan's scan_completed has arrived, so every event of that scan has been sent. */
async function completedEvent(scanId: string) {
  await waitFor(() =>
    receiver.delivered().some((m) => m.json.type === 'scan_completed' && m.json.data.scan_id === scanId),
  );
  return receiver.delivered().find((m) => m.json.type === 'scan_completed' && m.json.data.scan_id === scanId)!.json
    .data;
}
const resolvedEvents = () => receiver.delivered().filter((m) => m.json.type === 'finding_resolved');

/** finding_resolved messages in the outbox (the stored rows, not what has arrived so far). */
async function resolvedInOutbox(): Promise<number> {
  const rows = await api.db
    .selectFrom('webhook_messages')
    .select('id')
    .where('tenant_id', '=', tenant.tenantId)
    .where('event_type', '=', 'finding_resolved')
    .execute();
  return rows.length;
}

beforeAll(async () => {
  api = await startApi({
    SCANNER_REQUEST_TIMEOUT: `${TIMEOUT_MS}ms`,
    WEBHOOK_RETRY_SCHEDULE: '300ms',
    WEBHOOK_POLL_INTERVAL: '50ms',
  });
  site = await startSite({ routes });
  tenant = await seedTenant(api.db, site.url);
  receiver = await startReceiver();
  const hook = await api.call('POST', '/api/agent/webhooks', {
    key: tenant.key,
    body: { url: receiver.url, events: ['scan_completed', 'finding_new', 'finding_resolved'] },
  });
  expect(hook.status).toBe(201);
}, 60_000);

afterAll(async () => {
  await setFlag(true).catch(() => {});
  await Promise.all([site?.close(), receiver?.close()]);
  await api?.close();
});

describe('a scan that could not look resolves nothing', () => {
  let first: Record<string, { id: string; status: string }>;
  let firstScore: number;

  it('finds the exposed files and the key, every test completed or not applicable', async () => {
    const detail = await scan();
    first = await watched();
    firstScore = detail.score;
    expect(Object.keys(first).sort()).toEqual([...WATCHED].sort());
    expect(Object.values(first).map((f) => f.status)).toEqual(['OPEN', 'OPEN', 'OPEN']);
    expect(detail.coverage.filter((c: { status: string }) => c.status === 'failed' || c.status === 'skipped')).toEqual(
      [],
    );
    expect(coverageOf(detail, 'exposures')).toEqual([
      { test: 'exposures', subject: site.url.replace(/\/$/, ''), status: 'completed', reason: null },
    ]);
  });

  it('with exposure probes off (admin CLI): the files stay OPEN, unverified, and coverage says why', async () => {
    await setFlag(false);
    const detail = await scan();
    expect(coverageOf(detail, 'exposures')).toEqual([
      {
        test: 'exposures',
        subject: site.url.replace(/\/$/, ''),
        status: 'skipped',
        reason: 'uitgeschakeld door de beheerder',
      },
    ]);
    // Skipped by the operator is not a failed check.
    expect(detail.failed_checks).toEqual([]);
    expect(detail.changes.resolved).toEqual([]);
    expect([...detail.changes.unverified].sort()).toEqual(
      [first.exposed_env_file!.id, first.exposed_git_config!.id].sort(),
    );
    const now = await watched();
    expect(now.exposed_env_file!.status).toBe('OPEN');
    expect(now.exposed_git_config!.status).toBe('OPEN');
    // The unverified findings still count: the score is the first scan's, not an all-clear.
    expect(detail.score).toBe(firstScore);
    const event = await completedEvent(detail.id);
    expect(event.changes).toMatchObject({ resolved: 0, unverified: 2 });
    expect([await resolvedInOutbox(), resolvedEvents()]).toEqual([0, []]);
  });

  it('with the flag back on, the next complete scan lists nothing as regressed', async () => {
    await setFlag(true);
    const detail = await scan();
    expect(detail.changes).toMatchObject({ new: [], regressed: [], resolved: [], unverified: [] });
    expect(await watched()).toEqual(first);
  });

  it('with the script not answering in time: the key stays OPEN, the script is named with its time-out', async () => {
    routes['/app.js'] = { ...(routes['/app.js'] as object), delayMs: TIMEOUT_MS * 3 };
    const detail = await scan();
    expect(coverageOf(detail, 'client_code')).toEqual([
      { test: 'client_code', subject: site.url.replace(/\/$/, ''), status: 'completed', reason: null },
      { test: 'client_code', subject: `${site.url}app.js`, status: 'failed', reason: 'time-out na 0,8 s' },
    ]);
    // The library versions in that script were not judged either.
    expect(detail.failed_checks).toEqual([
      'client_secrets',
      'supabase_tables',
      'firebase',
      'javascript_libraries',
      'nextjs_version',
    ]);
    expect(coverageOf(detail, 'javascript_components')).toEqual([
      {
        test: 'javascript_components',
        subject: site.url.replace(/\/$/, ''),
        status: 'failed',
        reason: `1 script niet gelezen (${site.url}app.js: time-out na 0,8 s)`,
      },
    ]);
    expect(detail.changes.unverified).toEqual([first.client_secret_openai!.id]);
    expect((await watched()).client_secret_openai!.status).toBe('OPEN');
    await completedEvent(detail.id);
    expect([await resolvedInOutbox(), resolvedEvents()]).toEqual([0, []]);
    routes['/app.js'] = { ...(routes['/app.js'] as object), delayMs: 0 };
  });

  it('with the site down: the scan is stored, every test failed with the reason, every finding stays OPEN', async () => {
    await site.close();
    const detail = await scan();
    expect(detail.unreachable).toMatch(/^De site 127\.0\.0\.1:\d+ is niet bereikbaar via HTTP of HTTPS\.$/);
    expect(detail.findings).toEqual([]);
    expect(detail.coverage.length).toBeGreaterThan(5);
    for (const entry of detail.coverage.filter((e: { test: string }) => e.test !== 'mail'))
      expect(entry).toMatchObject({ status: 'failed', reason: `site niet bereikbaar: ${detail.unreachable}` });
    // The mail test's subject is the domain, not the web server: it runs anyway (an IP address has none).
    expect(detail.coverage.find((e: { test: string }) => e.test === 'mail')).toMatchObject({
      status: 'not_applicable',
    });
    expect(detail.changes.resolved).toEqual([]);
    expect(detail.changes.unverified).toEqual(expect.arrayContaining(Object.values(first).map((f) => f.id)));
    expect(await watched()).toEqual(first);
    // Every open finding unverified: the site's last known state, not an all-clear.
    expect(detail.score).toBe(firstScore);
    await completedEvent(detail.id);
    expect([await resolvedInOutbox(), resolvedEvents()]).toEqual([0, []]);
    site = await startSite({ routes, port: site.port });
  });

  it('when the site is really fixed, a complete scan resolves them, with finding_resolved', async () => {
    delete routes['/.env'];
    delete routes['/.git/config'];
    routes['/app.js'] = { headers: { 'content-type': 'application/javascript' }, body: 'console.log("winkel");' };
    const detail = await scan();
    expect(detail.unreachable).toBeNull();
    expect([...detail.changes.resolved].sort()).toEqual(
      Object.values(first)
        .map((f) => f.id)
        .sort(),
    );
    expect(detail.changes.regressed).toEqual([]);
    expect(Object.values(await watched()).map((f) => f.status)).toEqual(['RESOLVED', 'RESOLVED', 'RESOLVED']);
    await completedEvent(detail.id);
    await waitFor(() => resolvedEvents().length >= WATCHED.length);
    expect(
      resolvedEvents()
        .map((m) => [m.json.data.finding_type, (m.json.data.change as { kind: string }).kind])
        .sort(),
    ).toEqual(WATCHED.map((type) => [type, 'resolved']).sort());
  });
});
