import { describe, expect, it } from 'vitest';
import { analyze, contextFor } from '../scanner/analyze.ts';
import { readBackendReferences, selectColumns } from '../scanner/probes/backend-references.ts';
import { chunkReferences, nextBuildManifest, nextChunks, webpackChunkUrl } from '../scanner/probes/chunk-references.ts';
import { supabaseTargets } from '../scanner/probes/client-code.ts';
import { looksLikePeople, looksPersonal } from '../scanner/rules/personal-data.ts';
import { findSecrets, redact } from '../scanner/secrets/secret-scan.ts';
import { rowsFromContentRange } from '../scanner/probes/supabase-probe.ts';
import { evidence } from './support/evidence.ts';
import { supabaseJwt } from './support/client-code-sites.ts';

describe('what client code reveals', () => {
  it('reads the columns of PostgREST select strings, leaving embedded tables out', () => {
    expect(
      selectColumns(
        'id, email, name:full_name, phone::text, orders(total, items(sku)), author:users!author_id(name), data->address',
      ),
    ).toEqual(['id', 'email', 'full_name', 'phone', 'data']);
    expect(selectColumns('*')).toEqual([]);
  });

  it('takes tables from the query builder only, not from Array.from, Buffer.from or storage buckets', () => {
    const code =
      'const x=Array.from("abc"),y=Buffer.from("aGk=","base64");e.storage.from("avatars").upload(f);t.from("profiles").select("id,email");n.schema("crm").from("leads");';
    const refs = readBackendReferences(code);
    expect(refs.tables).toEqual(['profiles', 'leads']);
    expect(refs.selectedColumns).toEqual({ profiles: ['id', 'email'] });
  });

  it('recognises the legacy anon key by its claims and the URL next to it, and not a service_role key as public', () => {
    const anon = supabaseJwt('anon', 'abcdefghijklmnopqrst');
    const refs = readBackendReferences(
      `const u="https://db.acme.nl/",k="${anon}",s="${supabaseJwt('service_role')}",c=createClient(u,k);`,
    );
    expect(refs.supabaseKeys.map((k) => [k.kind, k.ref, k.nearbyUrls])).toEqual([
      ['anon', 'abcdefghijklmnopqrst', ['https://db.acme.nl']],
    ]);
  });

  it('probes the URLs next to the key first, and the ref project URL only as the second tier', () => {
    const anon = supabaseJwt('anon', 'abcdefghijklmnopqrst');
    const tiers = supabaseTargets([readBackendReferences(`createClient("https://db.acme.nl","${anon}")`)]);
    expect(tiers.map((tier) => tier.map((t) => t.backend))).toEqual([
      ['https://db.acme.nl'],
      ['https://abcdefghijklmnopqrst.supabase.co'],
    ]);
    expect(supabaseTargets([readBackendReferences('const nokey="https://abcdefghijklmnopqrst.supabase.co";')])).toEqual(
      [],
    );
  });

  it('reads firebaseConfig objects, quoted or not', () => {
    const refs = readBackendReferences(
      '{"apiKey":"AIza","databaseURL":"https://acme-default-rtdb.europe-west1.firebasedatabase.app","storageBucket":"acme.firebasestorage.app"}',
    );
    expect(refs.firebaseDatabaseUrls).toEqual(['https://acme-default-rtdb.europe-west1.firebasedatabase.app']);
    expect(refs.firebaseStorageBuckets).toEqual(['acme.firebasestorage.app']);
  });

  it('reads a Content-Range total and nothing else', () => {
    expect([
      rowsFromContentRange('0-24/3573'),
      rowsFromContentRange('*/0'),
      rowsFromContentRange('0-9/*'),
      rowsFromContentRange('bytes 0-9/10x'),
      rowsFromContentRange(null),
    ]).toEqual([3573, 0, null, null, null]);
  });

  it('calls columns and keys personal by their words, not a bare name', () => {
    expect(
      ['email', 'phoneNumber', 'date_of_birth', 'first_name', 'iban', 'access_token', 'street_address'].every(
        looksPersonal,
      ),
    ).toBe(true);
    expect(['id', 'name', 'title', 'created_at', 'price', 'mailbox_count'].some(looksPersonal)).toBe(false);
    expect(['users', 'customerOrders', 'klanten'].every(looksLikePeople)).toBe(true);
    expect(looksLikePeople('settings')).toBe(false);
  });
});

describe('secrets', () => {
  it('shows at most the first 8 characters (a quarter of the value) and always its last 4 from 8 characters on', () => {
    expect(redact('sk_live_51abcdefghijklmnopqrstuvwxyz0123')).toBe('sk_live_…0123');
    expect(redact('abcdefghijkl')).toBe('abc…ijkl');
    expect(redact('AKIAABCDEFGHIJKLMNOP')).toBe('AKIAA…MNOP');
    expect(redact('Gk29sLq0Xv')).toBe('Gk…q0Xv');
    expect(redact('s3cr3tpw')).toBe('…3tpw');
    expect(redact('abcdef')).toBe('…def');
  });

  it('ignores documentation examples and placeholders', async () => {
    const code =
      'const a={accessKeyId:"AKIAIOSFODNN7EXAMPLE",secretAccessKey:"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},s="sk_live_xxxxxxxxxxxxxxxxxxxxxxxxxxxx",t="sk_live_000000000000000000000000",d="postgres://user:password@localhost:5432/app";';
    expect(await findSecrets(code)).toEqual([]);
  });
});

describe('chunks a script can load', () => {
  const runtime = 'https://acme.nl/_next/static/chunks/webpack-1a2b.js';

  it('reads webpack 5 chunk functions with name and hash maps, conditionals for special chunks, and the public path', () => {
    const text =
      'r.p="/_next/",r.u=function(e){return 2272===e?"static/chunks/2272-c0d3.js":"static/chunks/"+(({296:"charts"})[e]||e)+"."+({52:"0f3b",296:"9a8c"})[e]+".js"},r.miniCssF=e=>{};';
    const { urls, webpack } = chunkReferences(text, runtime);
    expect(urls).toEqual(['https://acme.nl/_next/static/chunks/2272-c0d3.js']);
    expect(webpack[0]!.ids.map((id) => webpackChunkUrl(webpack[0]!.template, id))).toEqual([
      'https://acme.nl/_next/static/chunks/52.0f3b.js',
      'https://acme.nl/_next/static/chunks/charts.9a8c.js',
    ]);
  });

  it('takes chunk ids from __webpack_require__.e calls when the runtime inlines a single hash', () => {
    const { webpack } = chunkReferences(
      'l.p="/_next/",l.u=e=>"static/chunks/"+e+".c947.js",l.miniCssF=e=>{};',
      runtime,
    );
    expect(webpack[0]!.ids).toEqual([]);
    const { webpackIds } = chunkReferences(
      '(self.webpackChunk_N_E=self.webpackChunk_N_E||[]).push([[332],{1:(e,t,r)=>{r.e(74).then(r.bind(r,1074))}}]);',
      runtime,
    );
    expect(webpackIds.map((id) => webpackChunkUrl(webpack[0]!.template, id))).toEqual([
      'https://acme.nl/_next/static/chunks/74.c947.js',
    ]);
  });

  it('reads Vite imports with any quote and its preload lists relative to the base', () => {
    const text =
      'const __vite__mapDeps=(i,m=__vite__mapDeps,d=(m.f||(m.f=["app/assets/a-1.js","app/assets/a.css"])))=>i.map(i=>d[i]);const r={a:()=>s(()=>import(`./a-1.js`),__vite__mapDeps([0,1])),b:()=>import("./b-2.js")};';
    expect(chunkReferences(text, 'https://acme.nl/app/assets/index-3.js').urls).toEqual([
      'https://acme.nl/app/assets/a-1.js',
      'https://acme.nl/app/assets/b-2.js',
    ]);
    expect(chunkReferences('import(`./x-${name}.js`)', 'https://acme.nl/assets/i.js').urls).toEqual([]);
  });

  it('reads Next.js chunk paths from flight data and the build manifest', () => {
    expect(
      nextChunks(
        '2:"/_next/static/chunks/3qfy96eoyh-ek.js"\n3:I[1,["static/chunks/app/%5Bslug%5D/page-9a.js"]]',
        'https://acme.nl/blog',
      ),
    ).toEqual([
      'https://acme.nl/_next/static/chunks/3qfy96eoyh-ek.js',
      'https://acme.nl/_next/static/chunks/app/%5Bslug%5D/page-9a.js',
    ]);
    expect(nextBuildManifest('https://acme.nl/', [], '{"page":"/","buildId":"wx_dBi-0H7"}')).toBe(
      'https://acme.nl/_next/static/wx_dBi-0H7/_buildManifest.js',
    );
  });
});

describe('verdicts over evidence', () => {
  it('turns redacted secrets into one finding per kind and script', () => {
    const secret = (kind: 'stripe' | 'github', preview: string) => ({ kind, preview, length: 40 });
    const ctx = contextFor(
      evidence({
        clientCode: {
          secrets: [
            { url: 'https://example.nl/a.js', secret: secret('stripe', 'sk_live_…aaaa') },
            { url: 'https://example.nl/a.js', secret: secret('stripe', 'sk_live_…bbbb') },
            { url: 'https://example.nl/b.js', secret: secret('github', 'ghp_abcd…cccc') },
          ],
        },
      }),
    );
    const found = analyze(ctx).findings.filter((f) => f.finding_type.startsWith('client_secret_'));
    expect(found.map((f) => [f.finding_type, f.severity, f.endpoint, f.actual_value])).toEqual([
      [
        'client_secret_stripe',
        'CRITICAL',
        'https://example.nl/a.js',
        'Stripe secret key sk_live_…aaaa (40 tekens); Stripe secret key sk_live_…bbbb (40 tekens)',
      ],
      ['client_secret_github', 'HIGH', 'https://example.nl/b.js', 'GitHub-token ghp_abcd…cccc (40 tekens)'],
    ]);
  });

  it('names every credential of a kind in a script, each with its own preview: none hides behind a count', () => {
    const previews = Array.from({ length: 10 }, (_, i) => `sk-proj-…${String(i).repeat(4)}`);
    const ctx = contextFor(
      evidence({
        clientCode: {
          secrets: previews.map((preview) => ({
            url: 'https://example.nl/app.js',
            secret: { kind: 'openai' as const, preview, length: 164 },
          })),
        },
      }),
    );
    const [openai] = analyze(ctx).findings.filter((f) => f.finding_type === 'client_secret_openai');
    const named = openai!.actual_value!.split('; ');
    expect(named).toHaveLength(10);
    for (const [i, line] of named.entries())
      expect(line).toMatch(new RegExp(`…${String(i).repeat(4)} \\(164 tekens\\)$`));
    expect(openai!.actual_value).not.toMatch(/meer/);
  });

  it('never reports a table with 0 visible rows, a denied or a missing table', () => {
    const table = (
      name: string,
      access: 'readable' | 'denied' | 'missing',
      rows: number | null,
      columns: string[] = [],
    ) => ({ name, url: `https://db.acme.nl/rest/v1/${name}`, access, rows, columns });
    const ctx = contextFor(
      evidence({
        backends: {
          supabase: [
            {
              backend: 'https://db.acme.nl',
              keyKind: 'anon',
              answeredAsPostgrest: true,
              tables: [
                table('messages', 'readable', 0, ['email']),
                table('orders', 'denied', null),
                table('gone', 'missing', null),
                table('profiles', 'readable', 2, ['id', 'email']),
                table('posts', 'readable', null, ['title']),
              ],
            },
          ],
        },
      }),
    );
    const found = analyze(ctx).findings.filter((f) => f.finding_type.startsWith('supabase_'));
    expect(found.map((f) => [f.finding_type, f.actual_value])).toEqual([
      [
        'supabase_table_personal_data_readable',
        'tabel profiles: 2 rijen leesbaar met de anon key; kolommen met persoonsgegevens: email',
      ],
      ['supabase_table_readable', 'tabel posts: een onbekend aantal rijen leesbaar met de anon key'],
    ]);
  });

  it('shows site text without invisible characters', () => {
    const ctx = contextFor(
      evidence({
        backends: {
          firebaseDatabases: [
            {
              url: 'https://x.firebaseio.com/.json?shallow=true',
              status: 200,
              open: true,
              keys: ['us\u200Bers', '\u202Eevil'],
            },
          ],
        },
      }),
    );
    const [finding] = analyze(ctx).findings.filter((f) => f.finding_type.startsWith('firebase_'));
    expect(finding!.actual_value).toBe(
      'HTTP 200 zonder inloggen; namen op het hoogste niveau: users, evil [2 onzichtbare tekens verwijderd]',
    );
  });
});
