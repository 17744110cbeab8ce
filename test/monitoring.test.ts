import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordScan } from '../db/scans.ts';
import * as admin from '../services/admin.ts';
import { sweepMonitoring } from '../services/monitoring-sweeper.ts';
import { changeFindingStatus } from '../services/finding-status.ts';
import { PERMISSIONS } from '../domain/vocabulary.ts';
import { seedTenant, startApi, type Tenant, type TestApi } from './support/api.ts';
import { certificate, startSite, testCa, type FixtureSite } from './support/fixture-sites.ts';
import { startReceiver, waitFor, type Receiver } from './support/receiver.ts';
import { scanResult } from './support/scan-results.ts';
import { HARDENED_HEADERS } from './support/sites.ts';
import { createCa, crossSign } from './support/test-ca.ts';

// Monitoring over time, end to end: real scans of an HTTPS fixture site that changes between scans
// (a header dropped, a file exposed, the certificate renewed with a near end), the loopback webhook
// receiver, the dashboard's /trpc for people, and the sweeper run at a movable clock.

const DAY = 86_400_000;
const FAST = { WEBHOOK_RETRY_SCHEDULE: '300ms', WEBHOOK_POLL_INTERVAL: '50ms', WEBHOOK_LEASE: '1s' };
const ALL_EVENTS = [
  'scan_completed',
  'finding_new',
  'finding_resolved',
  'finding_severity_changed',
  'risk_acceptance_expiring',
  'risk_acceptance_expired',
  'expiry_warning',
];
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The time of the sweeps and of the service's workers: the real time plus an offset a test moves,
 * so the events a sweep enqueues "days later" are due for the delivery worker too.
 */
let offset = 0;
const clock = { now: () => Date.now() + offset };

let api: TestApi;
let site: FixtureSite;
let tenant: Tenant;
let stranger: Tenant;
let receiver: Receiver;
let legacyReceiver: Receiver;
let cookie: string;
let ownerId: string;
const scans: Array<Record<string, any>> = [];
let intermediate: ReturnType<typeof certificate>;
let crossSigned: ReturnType<typeof certificate>;

const securityTxt = (daysAhead: number) => ({
  headers: { 'content-type': 'text/plain; charset=utf-8' },
  body: `Contact: mailto:security@voorbeeld.nl\nExpires: ${iso(Date.now() + daysAhead * DAY)}\n`,
});
const leafEnding = (days: number) => certificate({ notAfter: new Date(Date.now() + days * DAY) }, intermediate);

async function scan(): Promise<Record<string, any>> {
  const created = await api.call('POST', '/api/agent/scan', { key: tenant.key, body: { site_id: tenant.siteId } });
  expect(created.status).toBe(201);
  const detail = await api.call('GET', `/api/agent/scans/${created.body.scan_id}`, { key: tenant.key });
  scans.push(detail.body);
  return detail.body;
}
const findingOf = (scanDetail: Record<string, any>, type: string) =>
  scanDetail.findings.find((f: { finding_type: string }) => f.finding_type === type) as Record<string, any>;
/** Delivered messages of one type, their data as the receiver parsed it. */
const ofType = (r: Receiver, type: string): Array<{ json: { data: any } }> =>
  r.delivered().filter((m) => m.json.type === type);

async function trpc(path: string, input: unknown, key?: string) {
  const response = await fetch(`${api.url}/trpc/${path}`, {
    method: 'POST',
    headers: {
      origin: api.url,
      'content-type': 'application/json',
      ...(key ? { authorization: `Bearer ${key}` } : { cookie }),
    },
    body: JSON.stringify(input),
  });
  return { status: response.status, body: (await response.json()) as any };
}

beforeAll(async () => {
  api = await startApi(FAST, { workersClock: clock });
  // The intermediate ends in 20 days; above it the server also sends an expired cross-sign of the
  // trusted root, which validation passes by and which must not alarm.
  intermediate = certificate({ ca: true, notAfter: new Date(Date.now() + 20 * DAY) });
  crossSigned = crossSign(testCa(), createCa('Scanner Old Root'), new Date(Date.now() - 30 * DAY));
  site = await startSite({
    tls: { certificate: leafEnding(200), chain: [intermediate, crossSigned] },
    routes: {
      '/': { headers: { ...HARDENED_HEADERS }, body: '<!doctype html><html><body>Monitoring</body></html>' },
      '/.well-known/security.txt': securityTxt(20),
    },
  });
  tenant = await seedTenant(api.db, site.url);
  stranger = await seedTenant(api.db, 'https://stranger.example/');
  [receiver, legacyReceiver] = await Promise.all([startReceiver(), startReceiver()]);
  for (const [r, events] of [
    [receiver, ALL_EVENTS],
    [legacyReceiver, ['scan_completed', 'finding_new', 'finding_resolved', 'suggestion_reviewed', 'scan_failed']],
  ] as const) {
    const hook = await api.call('POST', '/api/agent/webhooks', { key: tenant.key, body: { url: r.url, events } });
    expect(hook.status).toBe(201);
  }
  const email = `eigenaar-${randomUUID().slice(0, 8)}@example.nl`;
  const user = await admin.createUser(
    { db: api.db, config: api.config },
    { tenant_id: tenant.tenantId, email, role: 'owner', login: true },
  );
  ownerId = user.id;
  const login = await fetch(`${api.url}/trpc/account.logIn`, {
    method: 'POST',
    headers: { origin: api.url, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: user.initial_password }),
  });
  cookie = login.headers.get('set-cookie')!.split(';')[0]!;

  await scan();
  // Second scan: a header dropped, a secret file exposed, the certificate renewed with 20 days left.
  (site.routesRef['/'] as { headers: Record<string, string> }).headers = Object.fromEntries(
    Object.entries(HARDENED_HEADERS).filter(([name]) => name !== 'x-content-type-options'),
  );
  site.routesRef['/.env'] = { headers: { 'content-type': 'text/plain' }, body: 'APP_KEY=base64:abc\nDB_PASSWORD=x\n' };
  site.replaceCertificate(leafEnding(20), [intermediate, crossSigned]);
  await scan();
  // Third scan: the header back, and a renewal gone wrong: 10 days left.
  (site.routesRef['/'] as { headers: Record<string, string> }).headers = { ...HARDENED_HEADERS };
  site.replaceCertificate(leafEnding(10), [intermediate, crossSigned]);
  await scan();
  // Fourth scan: the header dropped again.
  (site.routesRef['/'] as { headers: Record<string, string> }).headers = Object.fromEntries(
    Object.entries(HARDENED_HEADERS).filter(([name]) => name !== 'x-content-type-options'),
  );
  await scan();
}, 120_000);

afterAll(async () => {
  await Promise.all([site?.close(), receiver?.close(), legacyReceiver?.close()]);
  await api?.close();
});

describe('changes per scan', () => {
  it('reports every finding of a first scan as new, compared with nothing', () => {
    const [first] = scans;
    expect(first!.changes.compared_to_scan_id).toBeNull();
    expect([...first!.changes.new].sort()).toEqual(first!.findings.map((f: { id: string }) => f.id).sort());
    expect(first!.changes).toMatchObject({ regressed: [], resolved: [], severity_changed: [], escalated: [] });
  });

  it('names what a second scan broke, a third fixed and escalated, and a fourth broke again', () => {
    const [first, second, third, fourth] = scans as Array<Record<string, any>>;
    const env = findingOf(second!, 'exposed_env_file');
    const sniff = findingOf(second!, 'x_content_type_options_missing');
    const ending30 = findingOf(second!, 'tls_certificate_expires_within_30_days');
    expect(second!.changes).toEqual({
      compared_to_scan_id: first!.id,
      new: expect.arrayContaining([env.id, sniff.id, ending30.id]),
      regressed: [],
      resolved: [],
      severity_changed: [],
      escalated: [],
      unverified: [],
    });
    expect(second!.changes.new).toHaveLength(3);

    const ending14 = findingOf(third!, 'tls_certificate_expires_within_14_days');
    expect(findingOf(third!, 'tls_certificate_expires_within_30_days')).toBeUndefined();
    expect(third!.changes).toEqual({
      compared_to_scan_id: second!.id,
      new: [],
      regressed: [],
      resolved: [sniff.id],
      severity_changed: [],
      escalated: [{ finding_id: ending14.id, from_finding_id: ending30.id }],
      unverified: [],
    });

    expect(fourth!.changes).toMatchObject({ compared_to_scan_id: third!.id, new: [], regressed: [sniff.id] });
  });

  it('compares any two scans of the site with ?against=, and refuses others with 400 or 404', async () => {
    const [first, second, , fourth] = scans as Array<Record<string, any>>;
    const path = (id: string, against: string) => `/api/agent/scans/${id}/changes?against=${against}`;
    const againstFirst = await api.call('GET', path(fourth!.id, first!.id), { key: tenant.key });
    expect(againstFirst.status).toBe(200);
    expect(againstFirst.body.compared_to_scan_id).toBe(first!.id);
    // The first scan saw no certificate ending: against it, the 14-day finding is simply new.
    expect([...againstFirst.body.new].sort()).toEqual(
      [
        findingOf(fourth!, 'exposed_env_file').id,
        findingOf(fourth!, 'x_content_type_options_missing').id,
        findingOf(fourth!, 'tls_certificate_expires_within_14_days').id,
      ].sort(),
    );
    expect(againstFirst.body.escalated).toEqual([]);
    const againstSecond = await api.call('GET', path(fourth!.id, second!.id), { key: tenant.key });
    expect(againstSecond.body).toMatchObject({
      new: [],
      regressed: [],
      resolved: [],
      escalated: [
        {
          finding_id: findingOf(fourth!, 'tls_certificate_expires_within_14_days').id,
          from_finding_id: findingOf(second!, 'tls_certificate_expires_within_30_days').id,
        },
      ],
    });
    const recorded = await api.call('GET', `/api/agent/scans/${fourth!.id}/changes`, { key: tenant.key });
    expect(recorded.body).toEqual(fourth!.changes);

    expect((await api.call('GET', path(fourth!.id, 'geen-id'), { key: tenant.key })).status).toBe(400);
    expect((await api.call('GET', path(fourth!.id, randomUUID()), { key: tenant.key })).status).toBe(404);
    const foreign = await api.call('GET', path(fourth!.id, first!.id), { key: stranger.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: expect.any(String) });
    // A scan of another site of the same tenant cannot be compared.
    const otherSite = await admin.createSite(
      { db: api.db, config: api.config },
      { tenant_id: tenant.tenantId, name: 'Ander', url: site.url.replace('127.0.0.1', 'localhost') },
    );
    const otherScan = await api.call('POST', '/api/agent/scan', { key: tenant.key, body: { site_id: otherSite.id } });
    const mixed = await api.call('GET', path(fourth!.id, otherScan.body.scan_id), { key: tenant.key });
    expect(mixed.status).toBe(400);
    expect(mixed.body.error).toMatch(/dezelfde site/);
  });

  it('sends the change with every finding event and the counts with scan_completed', async () => {
    const [, second, third, fourth] = scans as Array<Record<string, any>>;
    await waitFor(() => ofType(receiver, 'scan_completed').length >= 4);
    const completed = ofType(receiver, 'scan_completed').find((m) => m.json.data.scan_id === third!.id)!;
    expect(completed.json.data.changes).toEqual({
      new: 0,
      regressed: 0,
      resolved: 1,
      severity_changed: 0,
      escalated: 1,
      unverified: 0,
    });
    await waitFor(() => ofType(receiver, 'finding_resolved').length >= 2);
    const escalated = ofType(receiver, 'finding_resolved').find((m) => m.json.data.change?.kind === 'escalated')!;
    expect(escalated.json.data).toMatchObject({
      id: findingOf(second!, 'tls_certificate_expires_within_30_days').id,
      status: 'RESOLVED',
      change: {
        kind: 'escalated',
        scan_id: third!.id,
        previous_scan_id: second!.id,
        previous_status: 'OPEN',
        previous_severity: 'MEDIUM',
      },
    });
    const regressed = ofType(receiver, 'finding_new').find((m) => m.json.data.change?.kind === 'regressed')!;
    expect(regressed.json.data).toMatchObject({
      id: findingOf(fourth!, 'x_content_type_options_missing').id,
      change: { kind: 'regressed', scan_id: fourth!.id, previous_status: 'RESOLVED' },
    });
    const resolved = ofType(receiver, 'finding_resolved').find((m) => m.json.data.change?.kind === 'resolved')!;
    expect(resolved.json.data.change.previous_scan_id).toBe(second!.id);
  });

  it('marks SARIF results new, updated or unchanged against the previous scan, without listing resolved ones', async () => {
    const [, , third] = scans as Array<Record<string, any>>;
    const sarif = await api.call('GET', `/api/agent/scans/${third!.id}/sarif`, { key: tenant.key });
    const results = sarif.body.runs[0].results as Array<{ ruleId: string; baselineState: string }>;
    const state = (type: string) => results.filter((r) => r.ruleId === type).map((r) => r.baselineState);
    expect(state('tls_certificate_expires_within_14_days')).toEqual(['new']);
    expect(state('exposed_env_file')).toEqual(['unchanged']);
    expect(state('x_content_type_options_missing')).toEqual([]);
    expect(results.every((r) => ['new', 'unchanged', 'updated'].includes(r.baselineState))).toBe(true);
  });
});

describe('expiry beyond the leaf', () => {
  it('finds the intermediate that ends in 20 days and the security.txt about to expire, not the ignored cross-sign', () => {
    const [first] = scans;
    const types = first!.findings.map((f: { finding_type: string }) => f.finding_type);
    expect(types).toContain('tls_intermediate_certificate_expires_within_30_days');
    expect(types).toContain('security_txt_expires_soon');
    expect(types).not.toContain('tls_intermediate_certificate_expired');
    const intermediateFinding = findingOf(first!, 'tls_intermediate_certificate_expires_within_30_days');
    expect(intermediateFinding).toMatchObject({ severity: 'MEDIUM', category: 'SSL_TLS' });
    expect(intermediateFinding.actual_value).toContain('Scanner Test Intermediate CA');
  });

  it('lists what ends when, soonest first, from the latest scan', async () => {
    const { status, body } = await api.call('GET', `/api/agent/sites/${tenant.siteId}/expiries`, { key: tenant.key });
    expect(status).toBe(200);
    const latest = scans.at(-1)!;
    expect(body.expiries.map((e: { kind: string }) => e.kind)).toEqual(['certificate', 'intermediate', 'security_txt']);
    expect(body.expiries[0]).toMatchObject({ kind: 'certificate', days_left: 9, scan_id: latest.id });
    expect(body.expiries[1]).toMatchObject({
      kind: 'intermediate',
      subject: 'CN=Scanner Test Intermediate CA',
      days_left: 19,
    });
    expect(body.expiries[2].subject).toBe(`${site.url}.well-known/security.txt`);
    expect(JSON.stringify(body)).not.toContain('Scanner Test CA');
    expect((await api.call('GET', `/api/agent/sites/${tenant.siteId}/expiries`, { key: stranger.key })).status).toBe(
      404,
    );
  });

  it('warns between scans once per threshold, the nearest one passed first', async () => {
    offset = 0;
    const deps = { db: api.db, config: api.config, clock };
    // Only this site's items count: another test may have scanned a second site with the same chain.
    const warned = () =>
      ofType(receiver, 'expiry_warning')
        .map((m) => m.json.data)
        .filter((w) => w.site_id === tenant.siteId);
    expect((await sweepMonitoring(deps)).warned).toBeGreaterThanOrEqual(3);
    expect((await sweepMonitoring(deps)).warned).toBe(0);
    await waitFor(() => warned().length === 3);
    expect(
      warned()
        .map((w) => [w.kind, w.threshold_days])
        .sort(),
    ).toEqual([
      ['certificate', 14],
      ['intermediate', 30],
      ['security_txt', 30],
    ]);
    expect(warned().find((w) => w.kind === 'intermediate')).toMatchObject({
      subject: 'CN=Scanner Test Intermediate CA',
      days_left: 19,
      scan_id: scans.at(-1)!.id,
    });
    // Eleven days on: the certificate has ended (0); the intermediate and security.txt passed 14.
    offset += 11 * DAY;
    expect((await sweepMonitoring(deps)).warned).toBeGreaterThanOrEqual(3);
    expect((await sweepMonitoring(deps)).warned).toBe(0);
    await waitFor(() => warned().length === 6);
    expect(
      warned()
        .slice(3)
        .map((w) => [w.kind, w.threshold_days])
        .sort(),
    ).toEqual([
      ['certificate', 0],
      ['intermediate', 14],
      ['security_txt', 14],
    ]);
    expect(legacyReceiver.delivered().some((m) => m.json.type === 'expiry_warning')).toBe(false);
  });
});

describe('accepted risk that expires', () => {
  let envId: string;
  const accept = (input: Record<string, unknown>) =>
    trpc('findings.setStatus', { finding_id: envId, status: 'ACCEPTED_RISK', ...input });

  beforeAll(() => {
    envId = findingOf(scans.at(-1)!, 'exposed_env_file').id;
  });

  it('refuses an acceptance without a proper reason, owner or end with 400', async () => {
    const good = { reason: 'Alleen testgegevens in dit bestand', owner_id: ownerId, expires_at: iso(Date.now() + DAY) };
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...good, expires_at: undefined }, /expires_at/],
      [{ ...good, expires_at: iso(Date.now() - 60_000) }, /toekomst/],
      [{ ...good, expires_at: 'morgen' }, /datum/],
      [{ ...good, expires_at: '2027-13-45T25:00:00Z' }, /datum/],
      [{ ...good, expires_at: iso(Date.now() + 366 * DAY) }, /365/],
      [{ ...good, reason: 'kort' }, /10 tekens/],
      [{ ...good, owner_id: undefined }, /owner_id/],
      [{ ...good, owner_id: stranger.userId }, /owner_id/],
    ];
    for (const [input, message] of cases) {
      const { status, body } = await accept(input);
      expect(status, JSON.stringify(input)).toBe(400);
      expect(body.error.message).toMatch(message);
    }
    const finding = await api.call('GET', `/api/agent/findings/${envId}`, { key: tenant.key });
    expect(finding.body).toMatchObject({ status: 'OPEN', acceptance: null });
  });

  it('lets agents read acceptances but never grant them', async () => {
    const { status } = await trpc(
      'findings.setStatus',
      {
        finding_id: envId,
        status: 'ACCEPTED_RISK',
        reason: 'Een agent probeert het',
        owner_id: ownerId,
        expires_at: iso(Date.now() + DAY),
      },
      tenant.key,
    );
    expect([401, 403]).toContain(status);
    // Nothing was stored, and the service itself refuses a key even where a transport would let it through.
    const finding = await api.call('GET', `/api/agent/findings/${envId}`, { key: tenant.key });
    expect(finding.body).toMatchObject({ status: 'OPEN', acceptance: null });
    expect(await api.db.selectFrom('finding_acceptances').selectAll().execute()).toEqual([]);
    await expect(
      changeFindingStatus(
        { db: api.db, config: api.config },
        { tenantId: tenant.tenantId, actor: { kind: 'api_key', id: tenant.keyId }, permissions: PERMISSIONS },
        {
          finding_id: envId,
          status: 'ACCEPTED_RISK',
          reason: 'Een agent probeert het',
          owner_id: ownerId,
          expires_at: iso(Date.now() + DAY),
        },
      ),
    ).rejects.toThrow(/Alleen mensen/);
  });

  it('warns once before the end, then reopens the finding the latest scan still saw', async () => {
    const expiresAt = iso(Date.now() + 60_000);
    const accepted = await accept({
      reason: 'Alleen testgegevens in dit bestand',
      owner_id: ownerId,
      expires_at: expiresAt,
    });
    expect(accepted.status).toBe(200);
    const detail = await api.call('GET', `/api/agent/findings/${envId}`, { key: tenant.key });
    expect(detail.body).toMatchObject({
      status: 'ACCEPTED_RISK',
      acceptance: {
        reason: 'Alleen testgegevens in dit bestand',
        owner: { id: ownerId, email: expect.stringContaining('@example.nl') },
        expires_at: expiresAt,
        created_by: expect.stringContaining('@example.nl'),
      },
    });
    expect(detail.body.history[0]).toMatchObject({ status: 'ACCEPTED_RISK', scan_id: null });
    expect(detail.body.history.at(-1)).toMatchObject({ status: 'OPEN', changed_by: 'scan', scan_id: scans[1]!.id });

    offset = 0;
    const deps = { db: api.db, config: api.config, clock };
    expect(await sweepMonitoring(deps)).toMatchObject({ noticed: 1, expired: 0 });
    expect(await sweepMonitoring(deps)).toMatchObject({ noticed: 0, expired: 0 });
    offset += 2 * 60_000;
    expect(await sweepMonitoring(deps)).toMatchObject({ noticed: 0, expired: 1 });
    expect(await sweepMonitoring(deps)).toMatchObject({ expired: 0 });

    await waitFor(() => ofType(receiver, 'risk_acceptance_expired').length === 1);
    expect(ofType(receiver, 'risk_acceptance_expiring')).toHaveLength(1);
    expect(ofType(receiver, 'risk_acceptance_expiring')[0]!.json.data).toMatchObject({
      finding: { id: envId },
      acceptance: { expires_at: expiresAt },
      days_left: 0,
    });
    const reopened = await waitFor(() =>
      ofType(receiver, 'finding_new').find((m) => m.json.data.change?.kind === 'acceptance_expired'),
    );
    expect(reopened.json.data).toMatchObject({
      id: envId,
      status: 'OPEN',
      change: { kind: 'acceptance_expired', scan_id: scans.at(-1)!.id, previous_status: 'ACCEPTED_RISK' },
    });
    const after = await api.call('GET', `/api/agent/findings/${envId}`, { key: tenant.key });
    expect(after.body).toMatchObject({ status: 'OPEN', acceptance: null });
    expect(after.body.history[0]).toMatchObject({
      status: 'OPEN',
      reason: expect.stringContaining('acceptatie verlopen'),
    });
  });

  it('resolves quietly an accepted finding the latest scan no longer saw', async () => {
    const sniffId = findingOf(scans.at(-1)!, 'x_content_type_options_missing').id;
    const accepted = await trpc('findings.setStatus', {
      finding_id: sniffId,
      status: 'ACCEPTED_RISK',
      reason: 'Wordt met de volgende release opgelost',
      owner_id: ownerId,
      expires_at: iso(Date.now() + 60_000),
    });
    expect(accepted.status).toBe(200);
    (site.routesRef['/'] as { headers: Record<string, string> }).headers = { ...HARDENED_HEADERS };
    await scan();
    expect((await api.call('GET', `/api/agent/findings/${sniffId}`, { key: tenant.key })).body.status).toBe(
      'ACCEPTED_RISK',
    );
    // "Quietly": the sweep's outbox holds no finding event for it (asserted on the rows, not by waiting).
    const findingEvents = async () =>
      (
        await api.db
          .selectFrom('webhook_messages')
          .select(['event_type', 'payload'])
          .where('event_type', 'in', ['finding_new', 'finding_resolved'])
          .execute()
      ).filter((m) => (JSON.parse(m.payload) as { data: { id?: string } }).data.id === sniffId);
    const before = await findingEvents();
    offset = 2 * 60_000;
    expect(await sweepMonitoring({ db: api.db, config: api.config, clock })).toMatchObject({ expired: 1 });
    const after = await api.call('GET', `/api/agent/findings/${sniffId}`, { key: tenant.key });
    expect(after.body).toMatchObject({ status: 'RESOLVED', acceptance: null });
    expect(after.body.history[0].reason).toContain('acceptatie verlopen');
    expect(await findingEvents()).toEqual(before);
    await waitFor(() => ofType(receiver, 'risk_acceptance_expired').length === 2);
  });

  it('extends an acceptance with the admin CLI and revokes it with another status', async () => {
    const extendable = await trpc('findings.setStatus', {
      finding_id: envId,
      status: 'ACCEPTED_RISK',
      reason: 'Alleen testgegevens in dit bestand',
      owner_id: ownerId,
      expires_at: iso(Date.now() + 10 * DAY),
    });
    expect(extendable.status).toBe(200);
    const later = iso(Date.now() + 40 * DAY);
    const extended = await admin.extendAcceptanceOfFinding(
      { db: api.db, config: api.config },
      { finding_id: envId, expires_at: later },
    );
    expect(extended).toMatchObject({
      status: 'ACCEPTED_RISK',
      acceptance: { expires_at: later, created_by: 'admin-cli' },
    });
    await expect(
      admin.extendAcceptanceOfFinding({ db: api.db, config: api.config }, { finding_id: envId, expires_at: 'nooit' }),
    ).rejects.toThrow(/datum/);
    const revoked = await trpc('findings.setStatus', { finding_id: envId, status: 'OPEN' });
    expect(revoked.status).toBe(200);
    const after = await api.call('GET', `/api/agent/findings/${envId}`, { key: tenant.key });
    expect(after.body).toMatchObject({ status: 'OPEN', acceptance: null });
    const register = await fetch(`${api.url}/trpc/findings.acceptances`, { headers: { origin: api.url, cookie } });
    expect(((await register.json()) as any).result.data).toEqual([]);
    // A person resolving it: finding_resolved says so.
    expect((await trpc('findings.setStatus', { finding_id: envId, status: 'RESOLVED' })).status).toBe(200);
    const manual = await waitFor(() =>
      ofType(receiver, 'finding_resolved').find(
        (m) => m.json.data.id === envId && m.json.data.change?.kind === 'manual',
      ),
    );
    expect(manual.json.data.change).toEqual({
      kind: 'manual',
      scan_id: null,
      previous_scan_id: null,
      previous_status: 'OPEN',
      previous_severity: 'CRITICAL',
    });
  });
});

describe('severity changes', () => {
  it('records a finding seen again with another severity, and SARIF calls it updated', async () => {
    const other = await admin.createSite(
      { db: api.db, config: api.config },
      { tenant_id: tenant.tenantId, name: 'Ernst', url: 'https://ernst.example/' },
    );
    const record = (severity: 'MEDIUM' | 'HIGH') => {
      const result = scanResult('https://ernst.example/', [['csp_missing', 'https://ernst.example/']]);
      result.findings[0] = { ...result.findings[0]!, severity };
      return api.db.transaction().execute((trx) => recordScan(trx, tenant.tenantId, other.id, result, 'api'));
    };
    const first = await record('MEDIUM');
    const second = await record('HIGH');
    const findingId = first.opened[0]!.id;
    expect(second.severityChanged.map((f) => [f.id, f.change.previous_severity, f.severity])).toEqual([
      [findingId, 'MEDIUM', 'HIGH'],
    ]);
    expect(second.changeCounts).toEqual({
      new: 0,
      regressed: 0,
      resolved: 0,
      severity_changed: 1,
      escalated: 0,
      unverified: 0,
    });
    const detail = await api.call('GET', `/api/agent/scans/${second.scan.id}`, { key: tenant.key });
    expect(detail.body.changes).toMatchObject({
      compared_to_scan_id: first.scan.id,
      severity_changed: [{ finding_id: findingId, from: 'MEDIUM', to: 'HIGH' }],
    });
    const sarif = await api.call('GET', `/api/agent/scans/${second.scan.id}/sarif`, { key: tenant.key });
    expect(sarif.body.runs[0].results.map((r: { baselineState: string }) => r.baselineState)).toEqual(['updated']);
  });
});

describe('the sweeper in a running service', () => {
  it('runs every RISK_SWEEP_INTERVAL_S seconds on its own: an acceptance ending within the notice period is announced', async () => {
    const running = await startApi({ ...FAST, RISK_SWEEP_INTERVAL_S: '1' });
    const hooked = await startReceiver();
    try {
      const owner = await seedTenant(running.db, 'https://sweep.example/');
      const hook = await running.call('POST', '/api/agent/webhooks', {
        key: owner.key,
        body: { url: hooked.url, events: ['risk_acceptance_expiring'] },
      });
      expect(hook.status).toBe(201);
      const recorded = await running.db
        .transaction()
        .execute((trx) =>
          recordScan(
            trx,
            owner.tenantId,
            owner.siteId,
            scanResult('https://sweep.example/', [['csp_missing', 'https://sweep.example/']]),
            'api',
          ),
        );
      const findingId = recorded.opened[0]!.id;
      await admin.setStatusOfFinding(
        { db: running.db, config: running.config },
        {
          finding_id: findingId,
          status: 'ACCEPTED_RISK',
          reason: 'Wordt volgende week opgelost',
          owner_id: owner.userId,
          expires_at: iso(Date.now() + 60_000),
        },
      );
      const [notice] = await waitFor(() => {
        const delivered = ofType(hooked, 'risk_acceptance_expiring');
        return delivered.length > 0 && delivered;
      });
      expect(notice!.json.data).toMatchObject({ finding: { id: findingId, status: 'ACCEPTED_RISK' } });
    } finally {
      await hooked.close();
      await running.close();
    }
  });
});
