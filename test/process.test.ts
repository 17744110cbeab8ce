import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openMigratedDatabase } from '../db/database.ts';
import { createSite } from '../services/admin.ts';
import { seedTenant, TEST_CONFIG } from './support/api.ts';
import { rawSite } from './support/hostile-sites.ts';
import { listeningPort } from './support/net.ts';
import { killWithThisProcess } from './support/orphan-guard.ts';

const ROOT = resolve(import.meta.dirname, '..');
const execFileAsync = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'scanner-process-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A process's parent, from /proc/<pid>/stat (the field after the parenthesised command name). */
const parentOf = (pid: string): number | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined; // gone since the directory was listed
  }
};
const exited = (child: ChildProcess) => new Promise<number | null>((done) => child.once('exit', (code) => done(code)));

// The service as a process of its own (npm start, dist/server/main.js) on its zero-configuration
// SQLite file: the same whichever engine a run tests, so these run once, not per engine.
describe('the service as a process', () => {
  it('leaves no server running when the test process is killed (SIGKILL runs no cleanup)', async () => {
    // A stand-in for a test process: it starts a server-like child the way the tests do, then dies.
    const script = `import { spawn } from 'node:child_process';
      import { killWithThisProcess } from ${JSON.stringify(join(ROOT, 'test/support/orphan-guard.ts'))};
      const child = killWithThisProcess(spawn('sleep', ['60'], { detached: true, stdio: 'ignore' }), { group: true });
      console.log(child.pid);
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const childPid = await new Promise<number>((done) =>
      parent.stdout!.once('data', (chunk: Buffer) => done(Number(chunk.toString().trim()))),
    );
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(alive(childPid)).toBe(true);
    parent.kill('SIGKILL');
    const began = Date.now();
    while (alive(childPid) && Date.now() - began < 5_000) await new Promise((r) => setTimeout(r, 50));
    expect(alive(childPid)).toBe(false);
  });

  it('stops gracefully on SIGTERM sent to the process `npm start` started: the scan in flight finishes, exit 0', async () => {
    const slow = await rawSite((socket) =>
      setTimeout(
        () =>
          socket.writable &&
          socket.end('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5\r\n\r\n<p>x</p>'),
        1_500,
      ),
    );
    const env = {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_PATH: join(dir, 'term.db'),
      SCANNER_ALLOW_PRIVATE_TARGETS: 'true',
      SCANNER_DEADLINE: '4s',
      LOG_LEVEL: 'info',
    };
    const db = await openMigratedDatabase(env.DATABASE_PATH);
    const tenant = await seedTenant(db, slow.url);
    await createSite(
      { db, config: TEST_CONFIG },
      {
        tenant_id: tenant.tenantId,
        name: 'Traag',
        url: slow.url,
      },
    );
    await db.destroy();
    // Its own process group: npm's child is the server, and the guard kills both.
    const npm = killWithThisProcess(
      spawn('npm', ['start'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] }),
      { group: true },
    );
    try {
      const port = await listeningPort(npm);
      // npm's shell execs node with package.json's node_flags: the heap bound the memory target was measured with.
      const { config } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
        config: { node_flags: string };
      };
      expect(config.node_flags).toMatch(/^--max-old-space-size=\d+$/);
      // The server is npm's child (its shell exec'd node), found in /proc without procps.
      const server = readdirSync('/proc').find((pid) => /^\d+$/.test(pid) && parentOf(pid) === npm.pid);
      expect(readFileSync(`/proc/${server}/cmdline`, 'utf8').split('\0')).toEqual([
        'node',
        config.node_flags,
        'dist/server/main.js',
        '',
      ]);
      const scan = fetch(`http://127.0.0.1:${port}/api/agent/scan`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ site_id: tenant.siteId }),
      });
      await new Promise((done) => setTimeout(done, 300));
      npm.kill('SIGTERM');
      const signalled = Date.now();
      expect((await scan).status).toBe(201);
      expect(await exited(npm)).toBe(0);
      // The scan's connection goes idle after its answer; shutdown closes it instead of waiting out
      // KEEP_ALIVE_TIMEOUT (72 s).
      expect(Date.now() - signalled).toBeLessThan(20_000);
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    } finally {
      npm.kill('SIGKILL');
      await slow.close();
    }
  }, 90_000);

  it('answers a 6 MB body with a 413 that fetch and curl read every time, from a process of its own', async () => {
    const env = {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_PATH: join(mkdtempSync(join(dir, 'big-')), 'scanner.db'),
    };
    const server = killWithThisProcess(
      spawn(process.execPath, [join(ROOT, 'dist/server/main.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] }),
    );
    try {
      const url = `http://127.0.0.1:${await listeningPort(server)}/api/agent/auth`;
      const body = JSON.stringify({ api_key: 'x'.repeat(6 * 1024 * 1024) });
      // Across processes the client is still sending when a server that closes at once has answered:
      // without a lingering close about a third of these failed with EPIPE.
      for (let i = 0; i < 10; i++) {
        const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        expect(response.status).toBe(413);
        expect(await response.json()).toEqual({ error: 'De request body is groter dan 1 MiB.' });
      }
      const file = join(mkdtempSync(join(dir, 'body-')), 'body.json');
      writeFileSync(file, body);
      for (let i = 0; i < 5; i++) {
        const curl = [
          '-sS',
          '-o',
          '-',
          '-w',
          '\\n%{http_code}',
          '-H',
          'Content-Type: application/json',
          '--data-binary',
          `@${file}`,
          url,
        ];
        const { stdout } = await execFileAsync('curl', curl);
        expect(stdout.split('\n')).toEqual(['{"error":"De request body is groter dan 1 MiB."}', '413']);
      }
    } finally {
      server.kill('SIGKILL');
    }
  }, 60_000);

  it('stops on SIGINT with exit 0, and reads its settings from a .env file in the working directory', async () => {
    const cwd = mkdtempSync(join(dir, 'env-'));
    writeFileSync(join(cwd, '.env'), 'PORT=0\nHOST=127.0.0.1\nDATABASE_PATH=./uit-env.db\nLOG_LEVEL=info\n');
    const env = { ...process.env };
    for (const name of ['PORT', 'HOST', 'DATABASE_PATH', 'LOG_LEVEL']) delete env[name];
    const server = killWithThisProcess(
      spawn(process.execPath, [join(ROOT, 'dist/server/main.js')], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] }),
    );
    try {
      const port = await listeningPort(server);
      expect(existsSync(join(cwd, 'uit-env.db'))).toBe(true);
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      server.kill('SIGINT');
      expect(await exited(server)).toBe(0);
    } finally {
      server.kill('SIGKILL');
    }
  }, 60_000);
});
