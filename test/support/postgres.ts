import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './net.ts';
import { killWithThisProcess } from './orphan-guard.ts';

export interface TestPostgres {
  /** Connection URL of the server's maintenance database. */
  url: string;
  stop: () => Promise<void>;
}

/** The server binaries of Debian's postgresql package (the newest version installed). */
function binDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0]!, 'bin') : null;
}

export function postgresAvailable(): boolean {
  return binDir() !== null;
}

/**
 * PostgreSQL refuses to run as root. As root (CI containers), the server runs as the postgres user
 * Debian's package creates, in a data directory handed over to it.
 */
function asServerUser(command: string, args: string[]): [string, string[]] {
  return userInfo().uid === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

/** A throwaway PostgreSQL server in a temporary directory on a free loopback port, C collation, trust auth. */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  if (!bin)
    throw new Error(
      'PostgreSQL server binaries are missing: install the Debian package postgresql (.ci/run does this)',
    );
  const dir = mkdtempSync(join(tmpdir(), 'scanner-pg-'));
  const data = join(dir, 'data');
  if (userInfo().uid === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const [initdb, initArgs] = asServerUser(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '--locale=C',
    '--encoding=UTF8',
    '--no-sync',
  ]);
  execFileSync(initdb, initArgs, { stdio: 'ignore' });
  const port = await freePort();
  const settings = [
    '-c',
    `port=${port}`,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    `unix_socket_directories=${dir}`,
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=300',
  ];
  const [postgres, serverArgs] = asServerUser(join(bin, 'postgres'), ['-D', data, ...settings]);
  const child: ChildProcess = killWithThisProcess(spawn(postgres, serverArgs, { stdio: ['ignore', 'ignore', 'pipe'] }));
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`postgres exited with ${code}: ${output}`)));
  });
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      // runuser does not pass signals on; pg_ctl stops the server itself (fast: ends sessions).
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const [pgCtl, stopArgs] = asServerUser(join(bin, 'pg_ctl'), ['stop', '-D', data, '-m', 'fast', '-w']);
      execFileSync(pgCtl, stopArgs, { stdio: 'ignore' });
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh, empty database on the test server for one test's service; returns its URL. */
export async function createDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `t_${Math.random().toString(36).slice(2, 12)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
