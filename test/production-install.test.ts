import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigratedDatabase, type DB } from '../db/database.ts';
import { seedTenant } from './support/api.ts';
import { startSite, type FixtureSite } from './support/fixture-sites.ts';
import { listeningPort } from './support/net.ts';
import { killWithThisProcess } from './support/orphan-guard.ts';

// The service as `npm ci --omit=dev` installs it: the built dist/ beside only the packages npm
// counts as production ones (npm ls --omit=dev), so a run-time import of a dev dependency fails
// here instead of in a production deployment. The packages are linked, not downloaded: CI has no
// internet, and the tree npm reports is the one an --omit=dev install would hold.

const ROOT = join(import.meta.dirname, '..');

let listed: string[] | undefined;
/** The top-level packages of the production tree, as paths relative to node_modules (npm asked once). */
function productionPackages(): string[] {
  listed ??= productionTree();
  return listed;
}

function productionTree(): string[] {
  let listing: string;
  try {
    listing = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: ROOT, encoding: 'utf8' });
  } catch (error) {
    // npm ls exits non-zero for problems it only warns about; its listing is still complete.
    listing = String((error as { stdout?: string }).stdout ?? '');
  }
  const modules = join(ROOT, 'node_modules') + sep;
  return [
    ...new Set(
      listing
        .split('\n')
        .filter((path) => path.startsWith(modules))
        .map((path) => relative(join(ROOT, 'node_modules'), path))
        // Nested copies come with their parent; only node_modules/<name> and node_modules/@scope/<name>.
        .filter((name) => !name.includes(`${sep}node_modules${sep}`))
        .map((name) =>
          name
            .split(sep)
            .slice(0, name.startsWith('@') ? 2 : 1)
            .join(sep),
        ),
    ),
  ];
}

describe('a production install (npm ci --omit=dev)', () => {
  let dir: string;
  let server: ChildProcess;
  let base: string;
  let site: FixtureSite;
  let db: DB;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scanner-production-'));
    for (const name of productionPackages()) {
      const link = join(dir, 'node_modules', name);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(realpathSync(join(ROOT, 'node_modules', name)), link);
    }
    cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
    // The shipped vulnerability data is read at run time, as the clone holds it.
    cpSync(join(ROOT, 'vulndata'), join(dir, 'vulndata'), { recursive: true });
    cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
    const databasePath = join(dir, 'scanner.db');
    db = await openMigratedDatabase(databasePath);
    server = killWithThisProcess(
      spawn(process.execPath, [join(dir, 'dist', 'server', 'main.js')], {
        cwd: dir,
        env: {
          ...process.env,
          DATABASE_PATH: databasePath,
          PORT: '0',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'info',
          SCANNER_ALLOW_PRIVATE_TARGETS: 'true',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    base = `http://127.0.0.1:${await listeningPort(server)}`;
    site = await startSite({
      routes: { '/': { headers: { 'content-type': 'text/html' }, body: '<!doctype html><p>Winkel</p>' } },
    });
  }, 60_000);

  afterAll(async () => {
    server?.kill('SIGKILL');
    await Promise.all([site?.close(), db?.destroy()]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('holds none of the dev dependencies', () => {
    const names = productionPackages();
    expect(names).toContain('fastify');
    expect(names).toContain('dns-packet');
    for (const dev of ['vitest', '@biomejs/biome', 'playwright-core', 'dependency-cruiser'])
      expect(names).not.toContain(dev);
  });

  it('starts and scans a site once, its DNS client and every scan test included', async () => {
    const tenant = await seedTenant(db, site.url);
    const created = await fetch(`${base}/api/agent/scan`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: tenant.siteId }),
    });
    expect(created.status).toBe(201);
    const { scan_id: scanId } = (await created.json()) as { scan_id: string };
    const detail = (await (
      await fetch(`${base}/api/agent/scans/${scanId}`, { headers: { authorization: `Bearer ${tenant.key}` } })
    ).json()) as { coverage: Array<{ test: string; status: string; reason: string | null }> };
    // Only the shipped vulnerability data's age may hold a test back: past 90 days it is no all-clear.
    for (const failed of detail.coverage.filter((c) => c.status === 'failed'))
      expect(failed).toMatchObject({
        test: 'javascript_components',
        reason: expect.stringMatching(/^de kwetsbaarheidsgegevens van retire\.js zijn \d+ dagen oud/),
      });
    expect(detail.coverage.map((c) => c.test)).toContain('caa');
  });
});
