import { createHash } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from '../db/tenancy.ts';
import { hashPassword } from '../infra/passwords.ts';
import { runAdmin } from '../bin/admin-cli.ts';
import { startApi, type TestApi } from './support/api.ts';

// People and sessions: sign-up, log-in and log-out over /trpc with a session cookie, roles turned
// into permissions by the same services agents use.

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

const PASSWORD = 'lang-genoeg-wachtwoord';

async function trpc(
  path: string,
  options: { body?: unknown; cookie?: string; origin?: string | null; query?: boolean } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.cookie) headers.cookie = options.cookie;
  const origin = options.origin === undefined ? api.url : options.origin;
  if (origin && !options.query) headers.origin = origin;
  const url = `${api.url}/trpc/${path}${options.query && options.body !== undefined ? `?input=${encodeURIComponent(JSON.stringify(options.body))}` : ''}`;
  const response = await fetch(url, {
    method: options.query ? 'GET' : 'POST',
    headers,
    body: options.query ? undefined : JSON.stringify(options.body ?? {}),
  });
  const setCookie = response.headers.get('set-cookie');
  return {
    status: response.status,
    body: (await response.json()) as any,
    setCookie,
    cookie: setCookie?.split(';')[0] ?? null,
  };
}

let counter = 0;
const signUp = async () => {
  const email = `eigenaar${++counter}@winkel.example`;
  const response = await trpc('account.signUp', { body: { email, password: PASSWORD, organisation: 'Winkel BV' } });
  return { email, ...response };
};

describe('accounts', () => {
  it('signs up a tenant on the free plan with its owner, logged in by an HttpOnly SameSite=Lax cookie', async () => {
    const { status, setCookie, cookie, email } = await signUp();
    expect(status).toBe(200);
    // Plain http on loopback: no Secure, so no __Host- prefix (the browser would refuse it).
    expect(setCookie).toMatch(/^session=[\w-]{43}; Path=\/; Expires=.+; HttpOnly; SameSite=Lax$/);
    const me = await trpc('account.me', { cookie: cookie!, query: true });
    expect(me.body.result.data).toMatchObject({ email, role: 'owner', is_staff: false });
    const tenant = await api.db
      .selectFrom('tenants')
      .innerJoin('plans', 'plans.id', 'tenants.plan_id')
      .select('plans.tier')
      .where('tenants.id', '=', me.body.result.data.tenant_id)
      .executeTakeFirstOrThrow();
    expect(tenant.tier).toBe('free');
    const token = cookie!.split('=')[1]!;
    const stored = await api.db.selectFrom('sessions').select('id_hash').execute();
    expect(stored.map((s) => s.id_hash)).toContain(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(token);
    const user = await api.db
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(user.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
  });

  it('sets a __Host- prefixed Secure cookie when the service is not on plain-http loopback', async () => {
    // fetch may not set Host; a plain http request can, as a proxy in front of the service would.
    const body = JSON.stringify({ email: 'extern@winkel.example', password: PASSWORD, organisation: 'Extern' });
    const setCookie = await new Promise<string | undefined>((resolve, reject) => {
      const request = http.request(
        `${api.url}/trpc/account.signUp`,
        {
          method: 'POST',
          headers: { host: 'scanner.example', origin: 'http://scanner.example', 'content-type': 'application/json' },
        },
        (response) => {
          response.resume();
          resolve(response.headers['set-cookie']?.[0]);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
    expect(setCookie).toMatch(/^__Host-session=[\w-]{43}; Path=\/; Expires=.+; HttpOnly; Secure; SameSite=Lax$/);
  });

  it('answers a wrong password and an unknown address with the same 401, and logs in with the right one', async () => {
    const { email } = await signUp();
    const wrong = await trpc('account.logIn', { body: { email, password: 'verkeerd-wachtwoord!' } });
    const unknown = await trpc('account.logIn', { body: { email: 'niemand@winkel.example', password: PASSWORD } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.error.message).toBe('E-mailadres of wachtwoord onjuist.');
    expect(unknown.body.error.message).toBe(wrong.body.error.message);
    const right = await trpc('account.logIn', { body: { email: email.toUpperCase(), password: PASSWORD } });
    expect(right.status).toBe(200);
    expect((await trpc('account.me', { cookie: right.cookie!, query: true })).body.result.data.email).toBe(email);
  });

  it('refuses short passwords and a second account for one address', async () => {
    expect(
      (await trpc('account.signUp', { body: { email: 'kort@winkel.example', password: 'kort', organisation: 'X' } }))
        .status,
    ).toBe(400);
    const { email } = await signUp();
    expect((await trpc('account.signUp', { body: { email, password: PASSWORD, organisation: 'Y' } })).status).toBe(409);
  });

  it('ends the session on log-out', async () => {
    const { cookie } = await signUp();
    const out = await trpc('account.logOut', { cookie: cookie! });
    expect(out.setCookie).toMatch(/^session=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970/);
    expect((await trpc('account.me', { cookie: cookie!, query: true })).status).toBe(401);
  });

  it('ends every session on a password change, keeps this browser logged in with a new one, and checks the current password', async () => {
    const { email, cookie: first } = await signUp();
    const second = (await trpc('account.logIn', { body: { email, password: PASSWORD } })).cookie!;
    expect(
      (
        await trpc('account.changePassword', {
          cookie: first!,
          body: { current: 'fout-wachtwoord-123', next: 'een-nieuw-wachtwoord' },
        })
      ).status,
    ).toBe(400);
    const changed = await trpc('account.changePassword', {
      cookie: first!,
      body: { current: PASSWORD, next: 'een-nieuw-wachtwoord' },
    });
    expect(changed.status).toBe(200);
    expect(changed.cookie).not.toBe(first);
    for (const old of [first!, second])
      expect((await trpc('account.me', { cookie: old, query: true })).status).toBe(401);
    expect((await trpc('account.me', { cookie: changed.cookie!, query: true })).body.result.data.email).toBe(email);
    expect((await trpc('account.logIn', { body: { email, password: PASSWORD } })).status).toBe(401);
    expect((await trpc('account.logIn', { body: { email, password: 'een-nieuw-wachtwoord' } })).status).toBe(200);
  });

  it('joins through an invitation once, with its role, and not after it expired', async () => {
    const { cookie } = await signUp();
    const invite = await trpc('team.invite', {
      cookie: cookie!,
      body: { email: 'nieuw@winkel.example', role: 'admin' },
    });
    const token = (invite.body.result.data.path as string).split('#')[1]!;
    const stored = await api.db.selectFrom('invites').selectAll().executeTakeFirstOrThrow();
    expect(stored.token_hash).not.toContain(token);
    const joined = await trpc('account.acceptInvite', { body: { token, password: 'mijn-eigen-wachtwoord' } });
    expect(joined.status).toBe(200);
    expect((await trpc('account.me', { cookie: joined.cookie!, query: true })).body.result.data).toMatchObject({
      email: 'nieuw@winkel.example',
      role: 'admin',
    });
    expect((await trpc('account.acceptInvite', { body: { token, password: 'mijn-eigen-wachtwoord' } })).status).toBe(
      404,
    );
    const late = await trpc('team.invite', { cookie: cookie!, body: { email: 'laat@winkel.example', role: 'member' } });
    await api.db
      .updateTable('invites')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('email', '=', 'laat@winkel.example')
      .execute();
    expect(
      (
        await trpc('account.acceptInvite', {
          body: { token: late.body.result.data.path.split('#')[1], password: 'mijn-eigen-wachtwoord' },
        })
      ).status,
    ).toBe(404);
  });

  it('refuses a cookie-authenticated mutation from another origin or without one (CSRF)', async () => {
    const { cookie } = await signUp();
    expect((await trpc('account.logOut', { cookie: cookie!, origin: null })).status).toBe(403);
    const foreign = await trpc('account.logOut', { cookie: cookie!, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.message).toBe('Verzoek van een andere herkomst geweigerd.');
    expect((await trpc('account.me', { cookie: cookie!, query: true })).status).toBe(200);
  });

  it('limits log-in attempts per account', async () => {
    const { email } = await signUp();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await trpc('account.logIn', { body: { email, password: 'verkeerd-wachtwoord!' } })).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    const limited = await trpc('account.logIn', { body: { email, password: PASSWORD } });
    expect(limited.status).toBe(429);
    expect(limited.body.error.message).toMatch(/Te veel inlogpogingen/);
  });
});

describe('roles through the same services', () => {
  it('lets a member read and refuses what needs write_config; the owner may; dashboard calls use no API quota', async () => {
    const owner = await signUp();
    const me = (await trpc('account.me', { cookie: owner.cookie!, query: true })).body.result.data;
    await insertUser(api.db, me.tenant_id, 'lid@winkel.example', new Date().toISOString(), {
      role: 'member',
      passwordHash: await hashPassword(PASSWORD),
    });
    const member = await trpc('account.logIn', { body: { email: 'lid@winkel.example', password: PASSWORD } });
    const site = await api.db
      .insertInto('sites')
      .values({
        id: crypto.randomUUID(),
        tenant_id: me.tenant_id,
        name: 'Winkel',
        url: 'https://winkel.example/',
        detected_platform: null,
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const list = await trpc('sites.list', { cookie: member.cookie!, query: true, body: {} });
    expect(list.body.result.data.sites.map((s: { id: string }) => s.id)).toEqual([site.id]);
    const refused = await trpc('sites.update', {
      cookie: member.cookie!,
      body: { site_id: site.id, scan_interval_hours: 24 },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('Onvoldoende rechten: uw rol staat write_config niet toe.');
    const allowed = await trpc('sites.update', {
      cookie: owner.cookie!,
      body: { site_id: site.id, scan_interval_hours: 24 },
    });
    expect(allowed.body.result.data.scan_interval_hours).toBe(24);
    const usage = await api.db
      .selectFrom('usage_counters')
      .selectAll()
      .where('tenant_id', '=', me.tenant_id)
      .where('metric', '=', 'api_calls')
      .execute();
    expect(usage).toEqual([]);
  });

  it('keeps REST for keys: a session cookie does not open the agent API', async () => {
    const { cookie } = await signUp();
    expect((await api.call('GET', '/api/agent/sites', { headers: { cookie: cookie! } })).status).toBe(401);
  });

  it('lets operators make a staff account with `admin user create --staff`, which logs in with the password shown once', async () => {
    const tenant = await api.db.selectFrom('tenants').select('id').executeTakeFirstOrThrow();
    const out: string[] = [];
    const code = await runAdmin(
      ['user', 'create', '--tenant', tenant.id, '--email', 'team@scanner.example', '--staff', '--json'],
      {
        stdout: { write: (t: string) => out.push(t) },
        stderr: { write: () => 0 },
        env: { ...api.dbEnv, LOG_LEVEL: 'silent' },
      },
    );
    expect(code).toBe(0);
    const created = JSON.parse(out[0]!);
    expect(created).toMatchObject({
      email: 'team@scanner.example',
      role: 'owner',
      is_staff: 1,
      initial_password: expect.stringMatching(/^[\w-]{24}$/),
    });
    expect(created.password_hash).toBeUndefined();
    const login = await trpc('account.logIn', {
      body: { email: 'team@scanner.example', password: created.initial_password },
    });
    expect((await trpc('account.me', { cookie: login.cookie!, query: true })).body.result.data.is_staff).toBe(true);
  });
});
