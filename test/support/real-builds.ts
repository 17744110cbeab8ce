import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { build } from 'vite';
import { startSite, type FixtureSite, type Reply, type Route } from './fixture-sites.ts';

const DATA = join(import.meta.dirname, '..', 'data');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};
const typeOf = (path: string) => CONTENT_TYPES[path.slice(path.lastIndexOf('.'))] ?? 'application/octet-stream';

function replaceAll(text: string, values: Record<string, string>): string {
  return Object.entries(values).reduce((out, [marker, value]) => out.split(marker).join(value), text);
}

/**
 * A Vite 8 app (test/data/vite-app) built now by the pinned vite, with the Supabase URL and key a
 * real project would put in .env: an entry chunk, lazy route chunks loaded by ``import(`./x.js`)``
 * and a shared chunk in `__vite__mapDeps`. The customers table is named only in its route's chunk.
 */
export async function viteBuildSite(supabaseUrl: string, anonKey: string): Promise<FixtureSite> {
  const outDir = mkdtempSync(join(tmpdir(), 'vite-app-'));
  try {
    await build({
      root: join(DATA, 'vite-app'),
      configFile: false,
      logLevel: 'silent',
      define: {
        'import.meta.env.VITE_SUPABASE_URL': JSON.stringify(supabaseUrl),
        'import.meta.env.VITE_SUPABASE_ANON_KEY': JSON.stringify(anonKey),
      },
      build: { outDir, emptyOutDir: true },
    });
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
      );
    const routes: Record<string, Route> = {};
    for (const file of files(outDir))
      routes[`/${relative(outDir, file)}`] = {
        headers: { 'content-type': typeOf(file) },
        body: readFileSync(file, 'utf8'),
      };
    routes['/'] = routes['/index.html']!;
    // A single-page app answers every other path with its shell, as static hosts are set up for it.
    return await startSite({ gzip: true, routes, fallback: routes['/'] });
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

export type NextVariant = 'app-router' | 'pages-router';

/**
 * A Next.js 16 static export (test/data/nextjs, built by tools/next-fixture) served as `next start`
 * serves it: `/klanten` is klanten.html, or its RSC payload (text/x-component) when asked with
 * `RSC: 1`; unknown paths get the app's 404 page. `values` replace the build's markers, so the
 * credentials the tests look for are generated for each run and never stored in the repository.
 */
export function nextBuildSite(variant: NextVariant, values: Record<string, string>): Promise<FixtureSite> {
  const files = JSON.parse(
    gunzipSync(readFileSync(join(DATA, 'nextjs', `${variant}.json.gz`))).toString('utf8'),
  ) as Record<string, string>;
  const file = (path: string): Reply | null =>
    path in files ? { headers: { 'content-type': typeOf(path) }, body: replaceAll(files[path]!, values) } : null;
  const routes: Record<string, Route> = {};
  for (const path of Object.keys(files)) if (path.startsWith('/_next/')) routes[path] = file(path)!;
  const page = (req: { url?: string; headers: Record<string, string | string[] | undefined> }): Reply => {
    const path = new URL(req.url ?? '/', 'http://fixture').pathname.replace(/\/$/, '') || '/index';
    const rsc = req.headers.rsc === '1' ? file(`${path}.txt`) : null;
    if (rsc)
      return {
        ...rsc,
        headers: {
          'content-type': 'text/x-component',
          vary: 'RSC, Next-Router-State-Tree, Next-Router-Prefetch',
          'x-powered-by': 'Next.js',
        },
      };
    const html = file(`${path}.html`) ?? { ...file('/404.html')!, status: 404 };
    return { ...html, headers: { ...html.headers, 'x-powered-by': 'Next.js' } };
  };
  return startSite({ gzip: true, routes, fallback: page });
}
