import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { startSite, type FixtureSite, type Route } from './fixture-sites.ts';
import { killWithThisProcess } from './orphan-guard.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const SOURCES = join(ROOT, 'tools', 'next-versions');
/** Built once per clone and reused (.gitignore): npm installs and `next build` take minutes. */
export const REAL_BUILDS = join(ROOT, '.real', 'next');

export type Router = 'app-router' | 'pages-router';
export type Mode = 'server' | 'export';

/** React as these Next.js lines accept it; the App Router bundles its own React server build anyway. */
const REACT = '19.2.0';

function installed(version: string): string {
  const dir = join(REAL_BUILDS, `next-${version}`);
  if (existsSync(join(dir, 'node_modules', 'next', 'package.json'))) return dir;
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ private: true, dependencies: { next: version, react: REACT, 'react-dom': REACT } }),
  );
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit' });
  return dir;
}

/** A digest of an app's sources: a build is reused only for the sources it was built from. */
function sourceDigest(router: Router): string {
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else hash.update(`${relative(SOURCES, path)}\n`).update(readFileSync(path));
    }
  };
  walk(join(SOURCES, router));
  return hash.digest('hex').slice(0, 10);
}

/** The app built with `next build` at this version, router and mode; reused when already built. */
export function buildNextApp(version: string, router: Router, mode: Mode): string {
  const packages = installed(version);
  const app = join(REAL_BUILDS, `${version}-${router}-${mode}-${sourceDigest(router)}`);
  const done = join(app, mode === 'export' ? 'out/index.html' : '.next/BUILD_ID');
  if (existsSync(done)) return app;
  rmSync(app, { recursive: true, force: true });
  cpSync(join(SOURCES, router), app, { recursive: true });
  symlinkSync(join(packages, 'node_modules'), join(app, 'node_modules'));
  const config = mode === 'export' ? "{ output: 'export' }" : '{}';
  writeFileSync(join(app, 'next.config.mjs'), `export default ${config};\n`);
  execFileSync(join(packages, 'node_modules', '.bin', 'next'), ['build'], {
    cwd: app,
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  return app;
}

export interface RunningApp {
  url: string;
  close(): Promise<void>;
}

/** `next start` on a port of its own choosing, read back from its log. */
async function startServer(app: string): Promise<RunningApp> {
  const next = join(app, 'node_modules', '.bin', 'next');
  const child = killWithThisProcess(
    spawn(next, ['start', '-H', '127.0.0.1', '-p', '0'], {
      cwd: app,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /https?:\/\/(?:127\.0\.0\.1|localhost):(\d+)/.exec(output)?.[1];
      if (found && Number(found) > 0) resolve(Number(found));
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`next start exited with ${code}: ${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
  '.svg': 'image/svg+xml',
};

/** A static export served as a static host serves it: files by path, /over as over.html, the 404 page. */
async function serveExport(app: string): Promise<FixtureSite> {
  const out = join(app, 'out');
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
    );
  const routes: Record<string, Route> = {};
  for (const file of files(out)) {
    const reply = {
      headers: { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' },
      body: readFileSync(file),
    };
    const path = `/${relative(out, file)}`;
    routes[path] = reply;
    if (path.endsWith('.html')) routes[path.slice(0, -'.html'.length)] = reply;
  }
  routes['/'] = routes['/index.html']!;
  const notFound = routes['/404.html'] as { headers: Record<string, string>; body: Buffer } | undefined;
  return startSite({ gzip: true, routes, fallback: notFound ? { ...notFound, status: 404 } : { status: 404 } });
}

export async function runNextApp(version: string, router: Router, mode: Mode): Promise<RunningApp> {
  const app = buildNextApp(version, router, mode);
  return mode === 'server' ? startServer(app) : serveExport(app);
}
