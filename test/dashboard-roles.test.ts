import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertWebhook } from '../db/webhooks.ts';
import * as admin from '../services/admin.ts';
import { seedTenant, startApi, type Tenant, type TestApi } from './support/api.ts';
import { scanResult } from './support/scan-results.ts';
import { recordScan } from '../db/scans.ts';

// Every dashboard procedure refuses, in its service, the roles that may not use it; and another
// tenant's ids answer 404 exactly like missing ones. Driven over /trpc with real session cookies.

let api: TestApi;
let home: Tenant;
let other: Tenant;
const cookies: Record<'owner' | 'admin' | 'member' | 'staff', string> = { owner: '', admin: '', member: '', staff: '' };
const people: Record<string, string> = {};

async function trpc(path: string, input: unknown, options: { cookie?: string; key?: string; query?: boolean } = {}) {
  const headers: Record<string, string> = { origin: api.url };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  const response = options.query
    ? await fetch(
        `${api.url}/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
        { headers },
      )
    : await fetch(`${api.url}/trpc/${path}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(input ?? null),
      });
  return {
    status: response.status,
    body: (await response.json()) as { error?: { message: string }; result?: { data: any } },
  };
}

async function logIn(tenantId: string, role: 'owner' | 'admin' | 'member', staff = false): Promise<[string, string]> {
  const email = `${role}${staff ? '-staff' : ''}-${randomUUID().slice(0, 8)}@example.nl`;
  const user = await admin.createUser(
    { db: api.db, config: api.config },
    {
      tenant_id: tenantId,
      email,
      role,
      staff,
      login: true,
    },
  );
  const response = await fetch(`${api.url}/trpc/account.logIn`, {
    method: 'POST',
    headers: { origin: api.url, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: user.initial_password }),
  });
  expect(response.status).toBe(200);
  return [response.headers.get('set-cookie')!.split(';')[0]!, user.id];
}

beforeAll(async () => {
  api = await startApi();
  home = await seedTenant(api.db, 'https://thuis.example/');
  other = await seedTenant(api.db, 'https://ander.example/');
  // The other tenant has a finding of its own, so its id can be tried.
  const result = scanResult('https://ander.example/', [['csp_missing', 'https://ander.example/']]);
  await api.db.transaction().execute((trx) => recordScan(trx, other.tenantId, other.siteId, result, 'api'));
  for (const role of ['owner', 'admin', 'member'] as const)
    [cookies[role], people[role]] = await logIn(home.tenantId, role);
  // Staff belong to the service's own tenant and are ordinary members there.
  const team = await admin.createTenant(
    { db: api.db, config: api.config },
    {
      name: 'De dienst',
      plan: 'enterprise',
    },
  );
  [cookies.staff, people.staff] = await logIn(team.id, 'member', true);
});
afterAll(() => api.close());

type Role = keyof typeof cookies;
const EVERYONE: Role[] = ['owner', 'admin', 'member', 'staff'];

// [procedure, query?, input, roles allowed]. Inputs name ids that may not exist: a refusal comes
// before any look-up, so an allowed role gets 404 or success, never 401 or 403.
const MATRIX: Array<[string, boolean, () => unknown, Role[]]> = [
  ['keys.list', true, () => undefined, EVERYONE],
  ['keys.create', false, () => ({ name: 'k', permissions: ['read_scans'], rate_limit: 10 }), ['owner', 'admin']],
  ['keys.revoke', false, () => ({ key_id: randomUUID() }), ['owner', 'admin']],
  [
    'sites.create',
    false,
    () => ({ name: 'Nieuw', url: `https://${randomUUID().slice(0, 8)}.example/` }),
    ['owner', 'admin'],
  ],
  ['sites.update', false, () => ({ site_id: home.siteId, scan_interval_hours: 24 }), ['owner', 'admin']],
  ['findings.setStatus', false, () => ({ finding_id: randomUUID(), status: 'IN_PROGRESS' }), ['owner', 'admin']],
  ['findings.history', true, () => ({ finding_ids: [randomUUID()] }), EVERYONE],
  ['findings.page', true, () => ({ finding_id: randomUUID() }), EVERYONE],
  ['webhooks.deliveries', true, () => ({ id: randomUUID() }), EVERYONE],
  ['webhooks.enable', false, () => ({ id: randomUUID() }), ['owner', 'admin']],
  [
    'webhooks.create',
    false,
    () => ({ url: 'https://hooks.example/x', events: ['scan_completed'] }),
    ['owner', 'admin'],
  ],
  ['team.list', true, () => undefined, ['owner']],
  ['team.invite', false, () => ({ email: `nieuw-${randomUUID().slice(0, 8)}@example.nl`, role: 'member' }), ['owner']],
  ['team.setRole', false, () => ({ user_id: people.member, role: 'member' }), ['owner']],
  ['team.setBlocked', false, () => ({ user_id: randomUUID(), blocked: true }), ['owner']],
  ['staff.reviewQueue', true, () => ({}), ['staff']],
  ['staff.review', false, () => ({ suggestion_id: randomUUID(), status: 'approved' }), ['staff']],
  ['staff.tenants', true, () => undefined, ['staff']],
  ['staff.people', true, () => ({ tenant_id: home.tenantId }), ['staff']],
  ['staff.setSuspended', false, () => ({ tenant_id: randomUUID(), suspended: true }), ['staff']],
  ['staff.setUserBlocked', false, () => ({ user_id: randomUUID(), blocked: true }), ['staff']],
];

describe('roles', () => {
  it.each(MATRIX)(
    '%s: refused with 403 for every role not allowed, and allowed for the others',
    async (path, query, input, allowed) => {
      for (const role of EVERYONE) {
        const { status, body } = await trpc(path, input(), { cookie: cookies[role], query });
        if (allowed.includes(role)) expect([200, 404], `${role} on ${path}: ${JSON.stringify(body)}`).toContain(status);
        else expect({ role, status }, JSON.stringify(body)).toEqual({ role, status: 403 });
      }
    },
  );

  it('answers 401 to an API key and to nobody on dashboard-only procedures: keys are managed in the dashboard, not with a key', async () => {
    // Agents may use these two with a key (PATCH /sites/{id}, POST /webhooks); people use them too.
    const agentProcedures = new Set(['sites.update', 'webhooks.create']);
    for (const [path, query, input] of MATRIX.filter(([name]) => !agentProcedures.has(name))) {
      expect((await trpc(path, input(), { key: home.key, query })).status, path).toBe(401);
      expect((await trpc(path, input(), { query })).status, path).toBe(401);
    }
  });

  it('says why in Dutch', async () => {
    expect(
      (
        await trpc(
          'keys.create',
          { name: 'k', permissions: ['read_scans'], rate_limit: 10 },
          { cookie: cookies.member },
        )
      ).body.error?.message,
    ).toBe('Onvoldoende rechten: uw rol staat write_config niet toe.');
    expect((await trpc('team.list', undefined, { cookie: cookies.admin, query: true })).body.error?.message).toBe(
      'Alleen de eigenaar van het account beheert het team.',
    );
    expect((await trpc('staff.tenants', undefined, { cookie: cookies.owner, query: true })).body.error?.message).toBe(
      'Alleen medewerkers van de dienst hebben hier toegang.',
    );
  });
});

describe("another tenant's ids", () => {
  it('answer 404 like missing ones, and change nothing', async () => {
    const [foreignFinding] = await api.db
      .selectFrom('findings')
      .select('id')
      .where('tenant_id', '=', other.tenantId)
      .execute();
    const foreignHook = await insertWebhook(
      api.db,
      other.tenantId,
      'https://hooks.example/ander',
      ['scan_completed'],
      'whsec_x',
      new Date().toISOString(),
    );
    const owner = { cookie: cookies.owner };
    expect((await trpc('keys.revoke', { key_id: other.keyId }, owner)).status).toBe(404);
    expect((await trpc('webhooks.deliveries', { id: foreignHook.id }, { ...owner, query: true })).status).toBe(404);
    expect((await trpc('webhooks.enable', { id: foreignHook.id }, owner)).status).toBe(404);
    expect((await trpc('team.setBlocked', { user_id: other.userId, blocked: true }, owner)).status).toBe(404);
    expect((await trpc('team.setRole', { user_id: other.userId, role: 'member' }, owner)).status).toBe(404);
    expect(
      (await trpc('findings.setStatus', { finding_id: foreignFinding!.id, status: 'RESOLVED' }, owner)).status,
    ).toBe(404);
    expect((await trpc('findings.page', { finding_id: foreignFinding!.id }, { ...owner, query: true })).status).toBe(
      404,
    );
    expect(
      await api.db
        .selectFrom('findings')
        .select('status')
        .where('id', '=', foreignFinding!.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: 'OPEN' });
    const foreignKey = await api.db
      .selectFrom('api_keys')
      .select('revoked_at')
      .where('id', '=', other.keyId)
      .executeTakeFirstOrThrow();
    expect(foreignKey.revoked_at).toBeNull();
    const foreignUser = await api.db
      .selectFrom('users')
      .select(['blocked_at', 'role'])
      .where('id', '=', other.userId)
      .executeTakeFirstOrThrow();
    expect(foreignUser).toEqual({ blocked_at: null, role: 'owner' });
    expect(
      (await trpc('keys.list', undefined, { ...owner, query: true })).body.result?.data.map(
        (k: { key_id: string }) => k.key_id,
      ),
    ).not.toContain(other.keyId);
  });

  it('an owner cannot change their own role or block themselves', async () => {
    expect(
      (await trpc('team.setRole', { user_id: people.owner, role: 'member' }, { cookie: cookies.owner })).status,
    ).toBe(400);
    expect(
      (await trpc('team.setBlocked', { user_id: people.owner, blocked: true }, { cookie: cookies.owner })).status,
    ).toBe(400);
  });
});
