import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from './support/database.ts';

// The admin CLI as the command an operator types. Its commands themselves are tested in-process on
// both engines (admin-cli.test.ts); starting the command (tsx compiling the sources) is the same
// whichever engine it talks to, so this runs once.
const run = promisify(execFile);
let database: TestDatabase;
beforeAll(async () => {
  database = await freshDatabase('cli-command');
});
afterAll(() => database.drop());

describe('admin CLI command', () => {
  // Three processes that each compile the sources: on a loaded two-core machine that takes a while.
  it('runs as a command: npm run -s admin prints one JSON object, --help its usage with exit 0', {
    timeout: 90_000,
  }, async () => {
    const env = { ...process.env, ...database.env };
    const { stdout } = await run(
      'npm',
      ['run', '-s', 'admin', '--', 'tenant', 'create', '--name', 'Opdrachtregel', '--json'],
      { env },
    );
    expect(JSON.parse(stdout)).toMatchObject({ name: 'Opdrachtregel', plan: 'free' });
    expect((await run('npm', ['run', '-s', 'admin', '--', '--help'], { env })).stdout).toMatch(
      /^Usage: npm run -s admin/,
    );
    const failure = await run('npm', ['run', '-s', 'admin', '--', 'frobnicate'], { env }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure).toMatchObject({ code: 2, stderr: expect.stringMatching(/Unknown command/) });
  });
});
