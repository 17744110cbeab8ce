import { spawn, spawnSync } from 'node:child_process';
import { freePort } from './net.ts';
import { killWithThisProcess } from './orphan-guard.ts';

export interface TestRedis {
  url: string;
  stop: () => Promise<void>;
}

/** Whether Debian's redis-server is on this machine. */
export function redisAvailable(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

/**
 * Where redis-server is missing: in CI that is a broken setup (.ci/run installs it), so it fails
 * naming the package; on a developer's machine the Redis tests are skipped, and say so loudly.
 */
export function requireRedisOrSkip(): boolean {
  if (redisAvailable()) return true;
  if (process.env.CI)
    throw new Error('redis-server is missing: install the Debian package redis-server (.ci/run does this)');
  process.stderr.write('\n*** SKIPPED: Redis tests need redis-server (apt-get install redis-server) ***\n\n');
  return false;
}

/** A throwaway Redis on a free loopback port, without persistence. */
export async function startRedis(): Promise<TestRedis> {
  // redis-server cannot report a port it chose itself, so a free one is picked first.
  const port = await freePort();
  const child = killWithThisProcess(
    spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
