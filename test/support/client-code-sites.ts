import { generateKeyPairSync } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { startSite, type FixtureSite, type Reply } from './fixture-sites.ts';
import { checksummed, random, supabaseJwt } from './secret-samples.ts';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export { supabaseJwt };

/** Live-looking credentials in the formats the rules know, new for every run: no test knows them in advance. */
export function freshSecrets() {
  const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
  return {
    stripe: `sk_live_51${random(97)}`,
    openai: `sk-proj-${random(74)}T3BlbkFJ${random(74)}`,
    anthropic: `sk-ant-api03-${random(93)}AA`,
    awsKeyId: `AKIA${random(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`,
    awsSecret: random(40),
    github: checksummed('ghp_'),
    supabaseSecret: `sb_secret_${random(31)}`,
    serviceRole: supabaseJwt('service_role'),
    sendgrid: `SG.${random(22)}.${random(43)}`,
    privateKey: pem,
    databaseUrl: `postgres://app_owner:${random(24)}@db.internal.acme.nl:5432/prod`,
  };
}

export type Secrets = ReturnType<typeof freshSecrets>;

/** Values that look like secrets but are public by design, documentation examples or placeholders. */
export function decoys() {
  return {
    stripePublishable: `pk_live_51${random(97)}`,
    firebaseWebKey: `AIzaSy${random(33, `${ALNUM}-_`)}`,
    awsExampleId: 'AKIAIOSFODNN7EXAMPLE',
    awsExampleSecret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    stripePlaceholder: 'sk_live_xxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    openaiPlaceholder: 'sk-proj-your-api-key-here',
    supabasePublishable: `sb_publishable_${random(31)}`,
    anonKey: supabaseJwt('anon'),
  };
}

const js = (body: string): Reply => ({ headers: { 'content-type': 'application/javascript; charset=utf-8' }, body });
const html = (body: string, headers: Record<string, string> = {}): Reply => ({
  headers: { 'content-type': 'text/html; charset=utf-8', ...headers },
  body,
});

/** The real builds of widely used libraries, from npm (test/data/bundles/SOURCES.md). */
export function libraryBundles(): Array<{ name: string; code: string }> {
  const dir = join(import.meta.dirname, '..', 'data', 'bundles');
  return readdirSync(dir)
    .filter((file) => /\.m?js\.gz$/.test(file))
    .map((file) => ({
      name: file.replace(/\.gz$/, '').replace(/__/g, '-'),
      code: gunzipSync(readFileSync(join(dir, file))).toString('utf8'),
    }));
}

const supabaseBuild = () => libraryBundles().find((b) => b.name.includes('supabase'))!.code;

/** index.html as Vite builds a Lovable project. */
const lovableIndex = (scripts: string) =>
  html(`<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <link rel="icon" type="image/x-icon" href="/favicon.ico" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>acme-klantportaal</title>
    <meta name="description" content="Lovable Generated Project" />
    <meta name="author" content="Lovable" />
    <meta property="og:image" content="https://lovable.dev/opengraph-image-p98pqg.png" />
    ${scripts}
    <link rel="stylesheet" crossorigin href="/assets/index-D8f3kLmN.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`);

export interface LovableOptions {
  /** The project URL the app's client uses (a loopback PostgREST stand-in). */
  supabaseUrl: string;
  /** The public key: a legacy anon JWT or an sb_publishable_ key. */
  publicKey: string;
  /** More minified app code in the main chunk (secrets, Firebase configs). */
  appCode?: string;
  /** Code of an inline script in the page. */
  inline?: string;
}

/**
 * A Lovable/Vite app: index.html with the entry module and a modulepreload of the vendor chunk (the
 * real supabase-js build), the app code with createClient(url, key) and `.from()` calls, and a
 * lazily imported route chunk with more tables. Served gzipped, as hosting platforms do.
 */
export function lovableSite(options: LovableOptions): Promise<FixtureSite> {
  const main = `import"./vendor-BqR7xT2a.js";const Xe="${options.supabaseUrl}",Ye="${options.publicKey}",Ce=supabase.createClient(Xe,Ye,{auth:{storage:localStorage,persistSession:!0,autoRefreshToken:!0}});async function Lf(){const{data:e,error:t}=await Ce.from("profiles").select("id, full_name, email, phone").order("created_at",{ascending:!1});if(t)throw t;return e}async function Pf(){const{data:e}=await Ce.from("posts").select("*").eq("published",!0);return e}const Ds=()=>import("./Dashboard-a1B2c3D4.js");${options.appCode ?? ''}export{Ce as C};`;
  const dashboard = `import{C as e}from"./index-CkQ2b9Xe.js";async function t(){const[{data:n},{count:r}]=await Promise.all([e.from("orders").select("id,total,status"),e.from("messages").select("*",{count:"exact",head:!0})]);return{orders:n,unread:r}}export{t as default};`;
  return startSite({
    gzip: true,
    routes: {
      '/': lovableIndex(`<script type="module" crossorigin src="/assets/index-CkQ2b9Xe.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/vendor-BqR7xT2a.js">${options.inline ? `\n    <script>${options.inline}</script>` : ''}`),
      '/assets/index-CkQ2b9Xe.js': js(main),
      '/assets/vendor-BqR7xT2a.js': js(`${supabaseBuild()}\nexport{};`),
      '/assets/Dashboard-a1B2c3D4.js': js(dashboard),
    },
    // A single-page app answers every other path with its shell.
    fallback: lovableIndex('<script type="module" crossorigin src="/assets/index-CkQ2b9Xe.js"></script>'),
  });
}

/** A page that loads every library build of test/data/bundles, as a site with a few large dependencies does (without them: the bench's baseline). */
export function librarySite(withBundles = true): Promise<FixtureSite> {
  const bundles = withBundles ? libraryBundles() : [];
  const routes: Record<string, Reply> = {
    '/': html(
      `<!doctype html><html><head><title>Bibliotheken</title>${bundles.map((b) => `<script src="/static/${b.name}"></script>`).join('')}</head><body><div id="app"></div></body></html>`,
    ),
  };
  for (const bundle of bundles) routes[`/static/${bundle.name}`] = js(bundle.code);
  return startSite({ gzip: true, routes });
}

/**
 * A Next.js app whose middleware sends visitors without a session from /dashboard to /login, as
 * Next.js 15 does: a vulnerable version skips the middleware when x-middleware-subrequest names it
 * (src/middleware) five times; a patched one ignores the header.
 */
export function nextSite(
  vulnerable: boolean,
  nextData: object = { props: { pageProps: {} }, page: '/', query: {}, buildId: 'k3Jd8s' },
): Promise<FixtureSite> {
  const page = html(
    `<!DOCTYPE html><html lang="nl"><head><meta charSet="utf-8"/><title>Acme</title><link rel="preload" as="script" href="/_next/static/chunks/webpack-8d3c.js"/><script src="/_next/static/chunks/main-app-4f2a.js" async=""></script></head><body><a href="/dashboard">Dashboard</a><a href="/prijzen">Prijzen</a><div id="__next"></div><script id="__NEXT_DATA__" type="application/json">${JSON.stringify(nextData)}</script></body></html>`,
    { 'x-powered-by': 'Next.js' },
  );
  const skipsMiddleware = (header: string | string[] | undefined) =>
    vulnerable &&
    typeof header === 'string' &&
    header.split(':').filter((name) => name === 'src/middleware').length >= 5;
  const guarded =
    (body: string) =>
    (req: { headers: Record<string, string | string[] | undefined> }): Reply =>
      skipsMiddleware(req.headers['x-middleware-subrequest'])
        ? html(body)
        : {
            status: 307,
            headers: { location: '/login?from=%2Fdashboard', 'content-type': 'text/plain' },
            body: '/login?from=%2Fdashboard',
          };
  return startSite({
    routes: {
      '/': page,
      '/prijzen': html('<!DOCTYPE html><html><body><h1>Prijzen</h1></body></html>'),
      '/dashboard': guarded(
        '<!DOCTYPE html><html><body><h1>Dashboard</h1><p>Omzet vandaag: 12.340 euro</p></body></html>',
      ),
      '/admin': guarded('<!DOCTYPE html><html><body><h1>Beheer</h1></body></html>'),
      '/login': html('<!DOCTYPE html><html><body><form><input type="password"></form></body></html>'),
      '/_next/static/chunks/webpack-8d3c.js': js('(()=>{"use strict";var e={};})();'),
      '/_next/static/chunks/main-app-4f2a.js': js(
        '(self.webpackChunk_N_E=self.webpackChunk_N_E||[]).push([[744],{}]);',
      ),
    },
  });
}
