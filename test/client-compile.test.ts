import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');

// Apart from test/client.test.ts: compiling needs no database, so it runs once, not per engine.
describe('the TypeScript client', () => {
  it('compiles in a separate project with the settings of `tsc --init`, against the built declarations', async () => {
    // The built client must match the sources; `npm start` and `npm ci` build the same way.
    await run(process.execPath, ['bin/build-if-stale.mjs'], { cwd: ROOT });
    const { stdout } = await run(
      process.execPath,
      ['node_modules/typescript/bin/tsc', '-p', 'test/client-project', '--noEmit'],
      { cwd: ROOT },
    ).catch((error) => error);
    expect(stdout).toBe('');
  }, 90_000);
});
