import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createClient } from '../client/index.ts';
import { apiWithTenant } from './support/api.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');

const running = apiWithTenant();

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

  it('calls the API with createClient(baseUrl, apiKey)', async () => {
    const { api, tenant } = running;
    const client = createClient(api.url, tenant.key);
    const [sites, scans] = await Promise.all([client.sites.list.query(), client.scans.list.query({ limit: 5 })]);
    expect(sites.sites.map((site) => site.id)).toEqual([tenant.siteId]);
    expect(scans.pagination).toEqual({ total: 0, limit: 5, offset: 0, has_more: false });
    await expect(createClient(api.url, 'sak_ongeldig').config.get.query()).rejects.toMatchObject({
      data: { code: 'UNAUTHORIZED' },
    });
  });
});
