import { afterAll, describe, expect, it } from 'vitest';
import { scanSite, type ScanResult } from '../scanner/index.ts';
import { CLIENT_CODE_LIMITS } from '../scanner/probes/client-code.ts';
import { SUPABASE_REQUEST_BUDGET } from '../scanner/probes/supabase-probe.ts';
import {
  postgrestBackend,
  realtimeDatabase,
  storageApi,
  type FixtureBackend,
  type Row,
} from './support/backend-fixtures.ts';
import {
  decoys,
  freshSecrets,
  libraryBundles,
  librarySite,
  lovableSite,
  nextSite,
  supabaseJwt,
} from './support/client-code-sites.ts';
import { startSite, type FixtureSite } from './support/fixture-sites.ts';
import { nextBuildSite, viteBuildSite } from './support/real-builds.ts';

const servers: Array<FixtureSite | FixtureBackend> = [];
const keep = async <T extends FixtureSite | FixtureBackend>(server: Promise<T>): Promise<T> => {
  const started = await server;
  servers.push(started);
  return started;
};
afterAll(async () => Promise.all(servers.map((s) => s.close())));

const scan = (site: FixtureSite, extra = {}) =>
  scanSite(site.url, { allowPrivateTargets: true, probeExposures: false, ...extra });
const ofType = (result: ScanResult, type: string) => result.findings.filter((f) => f.finding_type === type);

const people = (n: number): Row[] =>
  Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    full_name: `Klant ${i}`,
    email: `klant${i}@voorbeeld.nl`,
    phone: `06${String(i).padStart(8, '0')}`,
    created_at: '2026-01-01',
  }));
const posts = (n: number): Row[] =>
  Array.from({ length: n }, (_, i) => ({ id: i + 1, title: `Bericht ${i}`, body: 'Tekst', published: true }));

/** What every fixture backend must be able to say after a scan: only reads, and not one row or value sent. */
function expectReadOnly(backend: FixtureBackend) {
  expect(backend.requests.map((r) => r.method).filter((m) => m !== 'GET' && m !== 'HEAD')).toEqual([]);
  expect(backend.rowsSent).toBe(0);
}

describe('Supabase behind a Lovable/Vite app', () => {
  it('names the readable table with personal data and its row count, reads no row, and grades the site zwak or worse', async () => {
    const anonKey = supabaseJwt('anon');
    const backend = await keep(
      postgrestBackend(anonKey, {
        profiles: { access: 'open', rows: people(1234) },
        posts: { access: 'open', rows: posts(12) },
        orders: { access: 'denied', rows: [{ id: 1, total: 10, status: 'paid' }] },
        messages: { access: 'rls', rows: [{ id: 1, sender_email: 'a@b.nl', text: 'hoi' }] },
      }),
    );
    const site = await keep(lovableSite({ supabaseUrl: backend.url, publicKey: anonKey }));
    const result = await scan(site);

    const personal = ofType(result, 'supabase_table_personal_data_readable');
    expect(personal).toHaveLength(1);
    expect(personal[0]).toMatchObject({
      severity: 'CRITICAL',
      category: 'EXPOSED_ENDPOINT',
      endpoint: `${backend.url}/rest/v1/profiles`,
    });
    expect(personal[0]!.actual_value).toContain('tabel profiles: 1.234 rijen leesbaar');
    expect(personal[0]!.actual_value).toMatch(/email.*phone|phone.*email/);
    const readable = ofType(result, 'supabase_table_readable');
    expect(readable.map((f) => [f.endpoint, f.severity])).toEqual([[`${backend.url}/rest/v1/posts`, 'MEDIUM']]);
    // Denied (42501) and row-level security with no visible rows are fine.
    expect(result.findings.map((f) => f.endpoint).filter((e) => /orders|messages/.test(e))).toEqual([]);
    expect(['zwak', 'kritiek']).toContain(result.grade);
    expect(result.failed_checks).toEqual([]);

    expectReadOnly(backend);
    expect(backend.requests.length).toBeLessThanOrEqual(SUPABASE_REQUEST_BUDGET);
    for (const request of backend.requests) {
      expect(request.headers.apikey).toBe(anonKey);
      expect(request.headers.authorization).toBe(`Bearer ${anonKey}`);
      // A read of rows would carry neither HEAD nor limit=0.
      if (request.method === 'GET' && request.url !== '/rest/v1/') expect(request.url).toMatch(/[?&]limit=0(&|$)/);
    }
    // The tables of the lazily imported route chunk were found too.
    expect(backend.requests.some((r) => r.url.startsWith('/rest/v1/orders'))).toBe(true);
    expect(site.requests).toContain('GET /assets/Dashboard-a1B2c3D4.js');
  });

  it('finds the backend of a 2025 publishable key by the URL next to it, and learns columns by probing names', async () => {
    const key = `sb_publishable_${'k'.repeat(4)}Q9xT2aLmN8pR4sV7wY1zB3cD5`;
    const backend = await keep(
      postgrestBackend(key, {
        profiles: { access: 'open', rows: people(3).map(({ email, id }) => ({ id, email })) },
        posts: { access: 'rls', rows: posts(1) },
      }),
    );
    // Only the table name is in the code: `select("*")` leaves the columns to the probes.
    const site = await keep(
      lovableSite({ supabaseUrl: `${backend.url}/`, publicKey: key, appCode: 'Ce.from("accounts").select("*");' }),
    );
    const result = await scan(site);
    const personal = ofType(result, 'supabase_table_personal_data_readable');
    expect(personal.map((f) => f.actual_value)).toEqual([
      'tabel profiles: 3 rijen leesbaar met de publishable key; kolommen met persoonsgegevens: email',
    ]);
    expect(ofType(result, 'supabase_table_readable')).toEqual([]);
    expectReadOnly(backend);
  });

  it('probes every common personal column of a readable table, not only the first that exists', async () => {
    const anonKey = supabaseJwt('anon');
    const accounts = Array.from({ length: 4 }, (_, i) => ({
      id: i,
      email: `a${i}@voorbeeld.nl`,
      phone: '0612345678',
      iban: 'NL00BANK0123456789',
      date_of_birth: '1990-01-01',
    }));
    const backend = await keep(
      postgrestBackend(anonKey, {
        accounts: { access: 'open', rows: accounts },
        profiles: { access: 'rls', rows: people(1) },
        posts: { access: 'rls', rows: posts(1) },
      }),
    );
    const result = await scan(
      await keep(
        lovableSite({ supabaseUrl: backend.url, publicKey: anonKey, appCode: 'Ce.from("accounts").select("*");' }),
      ),
    );
    expect(ofType(result, 'supabase_table_personal_data_readable').map((f) => f.actual_value)).toEqual([
      'tabel accounts: 4 rijen leesbaar met de anon key; kolommen met persoonsgegevens: email, phone, date_of_birth, iban',
    ]);
    expectReadOnly(backend);
  });

  it('reads tables and columns from the OpenAPI document of a self-hosted project that still serves it, without column probes', async () => {
    const anonKey = supabaseJwt('anon');
    const backend = await keep(
      postgrestBackend(
        anonKey,
        {
          customers: { access: 'open', rows: people(7) },
          invoices: { access: 'rls', rows: [{ id: 1, iban: 'NL00BANK0123456789' }] },
        },
        { schemaDocument: true },
      ),
    );
    const result = await scan(await keep(lovableSite({ supabaseUrl: backend.url, publicKey: anonKey })));
    // "customers" is in no .from() call of the code: only the document names it.
    expect(ofType(result, 'supabase_table_personal_data_readable').map((f) => f.actual_value)).toEqual([
      'tabel customers: 7 rijen leesbaar met de anon key; kolommen met persoonsgegevens: full_name, email, phone',
    ]);
    expect(backend.requests.filter((r) => r.url.includes('limit=0'))).toEqual([]);
    expectReadOnly(backend);
  });

  it('reports nothing for a project whose every table is protected', async () => {
    const anonKey = supabaseJwt('anon');
    const backend = await keep(
      postgrestBackend(anonKey, {
        profiles: { access: 'rls', rows: people(5) },
        posts: { access: 'denied', rows: posts(2) },
      }),
    );
    const result = await scan(await keep(lovableSite({ supabaseUrl: backend.url, publicKey: anonKey })));
    expect(result.findings.filter((f) => f.finding_type.startsWith('supabase_'))).toEqual([]);
    expectReadOnly(backend);
  });

  it('never sends the key to a backend the address policy refuses, and the scan still ends in a result', async () => {
    const anonKey = supabaseJwt('anon');
    const result = await scan(await keep(lovableSite({ supabaseUrl: 'http://169.254.169.254', publicKey: anonKey })));
    expect(result.findings.filter((f) => f.finding_type.startsWith('supabase_'))).toEqual([]);
    expect(result.failed_checks).toEqual([]);
  });
});

describe('secrets in client code', () => {
  it('reports each kind of live secret once per script, redacted, and none of the decoys', async () => {
    const secrets = freshSecrets();
    const fake = decoys();
    const appCode = [
      `const Sk="${secrets.stripe}",Pk="${fake.stripePublishable}",Ph="${fake.stripePlaceholder}";`,
      `const oa={apiKey:"${secrets.anthropic}"};`,
      `const aw={region:"eu-west-1",credentials:{accessKeyId:"${secrets.awsKeyId}",secretAccessKey:"${secrets.awsSecret}"}};`,
      `const ex={accessKeyId:"${fake.awsExampleId}",secretAccessKey:"${fake.awsExampleSecret}"};`,
      `const fb={apiKey:"${fake.firebaseWebKey}",authDomain:"acme-app.firebaseapp.com",projectId:"acme-app"};`,
      `const sr="${secrets.serviceRole}",ss="${secrets.supabaseSecret}",pub="${fake.supabasePublishable}";`,
      `const gh="${secrets.github}",sg="${secrets.sendgrid}",db="${secrets.databaseUrl}";`,
      `const pk=${JSON.stringify(secrets.privateKey)};`,
      `const oph="${fake.openaiPlaceholder}";`,
    ].join('');
    const backend = await keep(postgrestBackend(fake.anonKey, { profiles: { access: 'rls', rows: people(1) } }));
    const site = await keep(
      lovableSite({
        supabaseUrl: backend.url,
        publicKey: fake.anonKey,
        appCode,
        inline: `window.__CONFIG__={openai:"${secrets.openai}"};`,
      }),
    );
    const result = await scan(site);

    const main = `${site.url}assets/index-CkQ2b9Xe.js`;
    const bySeverity = (severity: string) =>
      result.findings
        .filter((f) => f.finding_type.startsWith('client_secret_') && f.severity === severity)
        .map((f) => [f.finding_type, f.endpoint]);
    expect(bySeverity('CRITICAL').sort()).toEqual(
      [
        ['client_secret_anthropic', main],
        ['client_secret_aws', main],
        ['client_secret_database_url', main],
        ['client_secret_openai', site.url],
        ['client_secret_private_key', main],
        // A mail sender's key sends mail as the site to its customers: CRITICAL.
        ['client_secret_sendgrid', main],
        ['client_secret_stripe', main],
        ['client_secret_supabase_secret', main],
      ].sort(),
    );
    expect(bySeverity('HIGH').sort()).toEqual([['client_secret_github', main]].sort());
    const stripe = ofType(result, 'client_secret_stripe')[0]!;
    expect(stripe.actual_value).toBe(
      `Stripe secret key sk_live_…${secrets.stripe.slice(-4)} (${secrets.stripe.length} tekens)`,
    );
    // Both Supabase secrets (sb_secret_ and the service_role JWT) are one kind in one script: one finding naming both.
    const supabase = ofType(result, 'client_secret_supabase_secret')[0]!.actual_value!.split('; ');
    expect(supabase.sort()).toEqual([
      `Supabase secret key eyJhbGci…${secrets.serviceRole.slice(-4)} (${secrets.serviceRole.length} tekens)`,
      `Supabase secret key sb_secre…${secrets.supabaseSecret.slice(-4)} (41 tekens)`,
    ]);
    expect(['zwak', 'kritiek']).toContain(result.grade);

    const everything = JSON.stringify(result);
    for (const [name, secret] of Object.entries(secrets)) {
      const core = name === 'privateKey' ? secret.split('\n')[2]! : secret;
      expect(everything.includes(core), `${name} appears in full`).toBe(false);
    }
  });

  it('reports no finding in 32 real library builds (test/data/bundles: React, Vue, SDKs of Supabase, Firebase, Stripe, PostHog, Algolia, Google Gen AI, Clerk, Mollie, Contentful, Sanity, ...)', async () => {
    const bundles = libraryBundles();
    expect(bundles.length).toBeGreaterThanOrEqual(20);
    const site = await keep(librarySite());
    const result = await scan(site);
    expect(result.findings.filter((f) => f.category === 'EXPOSED_ENDPOINT')).toEqual([]);
    expect(result.failed_checks).toEqual([]);
    // Every bundle was read (about 9 MB), and the chunk three.module.js imports was asked for.
    const asked = new Set(site.requests.filter((r) => r.startsWith('GET /static/')));
    for (const bundle of bundles) expect(asked).toContain(`GET /static/${bundle.name}`);
    expect(site.requests).toContain('GET /static/three.core.js');
  });

  it('reads at most 60 scripts and 3 MiB of each', async () => {
    const big = `const a="${'x'.repeat(CLIENT_CODE_LIMITS.scriptBytes + 1024)}";const k="${freshSecrets().stripe}";`;
    const routes: Record<string, { headers: Record<string, string>; body: string }> = {
      '/big.js': { headers: { 'content-type': 'application/javascript' }, body: big },
    };
    for (let i = 0; i < 70; i++)
      routes[`/s${i}.js`] = { headers: { 'content-type': 'application/javascript' }, body: `var s${i}=${i};` };
    const scripts = ['/big.js', ...Array.from({ length: 70 }, (_, i) => `/s${i}.js`)]
      .map((src) => `<script src="${src}"></script>`)
      .join('');
    const site = await keep(
      startSite({
        routes: {
          '/': {
            headers: { 'content-type': 'text/html' },
            body: `<!doctype html><html><head>${scripts}</head></html>`,
          },
          ...routes,
        },
      }),
    );
    const result = await scan(site);
    expect(site.requests.filter((r) => /^GET \/(s\d+|big)\.js$/.test(r))).toHaveLength(CLIENT_CODE_LIMITS.scripts);
    // The key after the first 3 MiB was never read.
    expect(ofType(result, 'client_secret_stripe')).toEqual([]);
  });
});

describe('Firebase', () => {
  const config = (databaseURL: string, storageBucket: string) =>
    `const firebaseConfig={apiKey:"${decoys().firebaseWebKey}",authDomain:"acme-app.firebaseapp.com",databaseURL:"${databaseURL}",projectId:"acme-app",storageBucket:"${storageBucket}",messagingSenderId:"123456789012",appId:"1:123456789012:web:abc123def456"};`;

  it('reports an open Realtime Database with people in it CRITICAL and a listable bucket HIGH, reading keys only', async () => {
    const database = await keep(
      realtimeDatabase(true, { users: { u1: { email: 'a@b.nl' } }, settings: { theme: 'dark' } }),
    );
    const storage = await keep(storageApi(['acme-app.appspot.com']));
    const anonKey = supabaseJwt('anon');
    const site = await keep(
      lovableSite({
        supabaseUrl: 'http://127.0.0.1:9',
        publicKey: anonKey,
        appCode: config(database.url, 'acme-app.appspot.com'),
      }),
    );
    const result = await scan(site, { firebaseStorageApi: storage.url });
    expect(
      ofType(result, 'firebase_database_open_personal').map((f) => [f.endpoint, f.severity, f.actual_value]),
    ).toEqual([
      [
        `${database.url}/.json?shallow=true`,
        'CRITICAL',
        'HTTP 200 zonder inloggen; namen op het hoogste niveau: users, settings',
      ],
    ]);
    expect(ofType(result, 'firebase_storage_listable').map((f) => f.severity)).toEqual(['HIGH']);
    expect(database.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /.json?shallow=true']);
    expectReadOnly(database);
    expect(storage.requests.map((r) => r.url)).toEqual(['/v0/b/acme-app.appspot.com/o?maxResults=1']);
  });

  it('reports nothing for a locked database and bucket', async () => {
    const database = await keep(realtimeDatabase(false, { users: {} }));
    const storage = await keep(storageApi([]));
    const site = await keep(
      lovableSite({
        supabaseUrl: 'http://127.0.0.1:9',
        publicKey: supabaseJwt('anon'),
        appCode: config(database.url, 'acme-app.appspot.com'),
      }),
    );
    const result = await scan(site, { firebaseStorageApi: storage.url });
    expect(result.findings.filter((f) => f.finding_type.startsWith('firebase_'))).toEqual([]);
  });
});

describe('Next.js middleware bypass (CVE-2025-29927)', () => {
  it('reports a guarded path that opens with x-middleware-subrequest, with GET only', async () => {
    const site = await keep(nextSite(true));
    const result = await scan(site);
    expect(result.detected_platform).toBe('nextjs');
    const bypass = ofType(result, 'nextjs_middleware_bypass');
    expect(bypass.map((f) => [f.endpoint, f.severity])).toEqual([
      [`${site.url}dashboard`, 'CRITICAL'],
      [`${site.url}admin`, 'CRITICAL'],
    ]);
    expect(bypass[0]!.actual_value).toContain(
      'src/middleware:src/middleware:src/middleware:src/middleware:src/middleware',
    );
    expect(bypass[0]!.actual_value).toContain('CVE-2025-29927');
    expect(site.requests.filter((r) => !r.startsWith('GET '))).toEqual([]);
    expect(['zwak', 'kritiek']).toContain(result.grade);
  });

  it('reports nothing for a patched Next.js that ignores the header', async () => {
    const result = await scan(await keep(nextSite(false)));
    expect(ofType(result, 'nextjs_middleware_bypass')).toEqual([]);
  });

  it('reads secrets in __NEXT_DATA__', async () => {
    const { github } = freshSecrets();
    const site = await keep(
      nextSite(false, { props: { pageProps: { deployToken: github } }, page: '/', buildId: 'x' }),
    );
    const result = await scan(site);
    expect(ofType(result, 'client_secret_github').map((f) => f.endpoint)).toEqual([site.url]);
  });
});

describe('real builds', () => {
  it('Vite 8: reads the lazy route chunk a template-literal import() names, and probes the table only it uses', async () => {
    const anonKey = supabaseJwt('anon');
    const orders = Array.from({ length: 5 }, (_, i) => ({
      id: i + 1,
      total: 10 * i,
      customer_email: `klant${i}@voorbeeld.nl`,
    }));
    const backend = await keep(
      postgrestBackend(anonKey, {
        customers: { access: 'open', rows: people(42) },
        orders: { access: 'open', rows: orders },
        posts: { access: 'rls', rows: posts(3) },
      }),
    );
    const site = await keep(viteBuildSite(backend.url, anonKey));
    const result = await scan(site);
    for (const chunk of ['customers', 'format', 'orders'])
      expect(
        site.requests.some((r) => new RegExp(`^GET /assets/${chunk}-[\\w-]+\\.js$`).test(r)),
        chunk,
      ).toBe(true);
    expect(
      ofType(result, 'supabase_table_personal_data_readable')
        .map((f) => f.actual_value)
        .sort(),
    ).toEqual([
      'tabel customers: 42 rijen leesbaar met de anon key; kolommen met persoonsgegevens: full_name, email, phone',
      'tabel orders: 5 rijen leesbaar met de anon key; kolommen met persoonsgegevens: customer_email',
    ]);
    expectReadOnly(backend);
  });

  it('Next.js app router (Turbopack): finds a key that only another route’s chunk holds, through that route’s RSC payload', async () => {
    const { stripe } = freshSecrets();
    const site = await keep(nextBuildSite('app-router', { __FIXTURE_SECRET__: stripe }));
    const result = await scan(site);
    const [finding] = ofType(result, 'client_secret_stripe');
    expect(finding?.endpoint).toMatch(new RegExp(`^${site.url}_next/static/chunks/[\\w-]+\\.js$`));
    expect(finding?.actual_value).toBe(`Stripe secret key sk_live_…${stripe.slice(-4)} (${stripe.length} tekens)`);
    expect(site.requests).toContain('GET /klanten');
    expect(JSON.stringify(result)).not.toContain(stripe);
  });

  it('Next.js pages router (webpack): finds keys in another page’s chunk (build manifest) and in a lazy chunk (webpack’s chunk function)', async () => {
    const { stripe, github } = freshSecrets();
    const site = await keep(
      nextBuildSite('pages-router', { __FIXTURE_SECRET__: stripe, __FIXTURE_LAZY_SECRET__: github }),
    );
    const result = await scan(site);
    expect(ofType(result, 'client_secret_stripe').map((f) => f.endpoint)).toEqual([
      expect.stringMatching(/\/_next\/static\/chunks\/pages\/rapport-[\da-f]+\.js$/),
    ]);
    expect(ofType(result, 'client_secret_github').map((f) => f.endpoint)).toEqual([
      expect.stringMatching(/\/_next\/static\/chunks\/74\.[\da-f]+\.js$/),
    ]);
    expect(site.requests.filter((r) => r.includes('_buildManifest.js'))).toHaveLength(1);
  });
});
