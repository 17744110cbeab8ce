import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureSite } from './support/fixture-sites.ts';
import { leakyWordPressSite } from './support/sites.ts';

const run = promisify(execFile);
let site: FixtureSite;
beforeAll(async () => {
  site = await leakyWordPressSite();
});
afterAll(() => site.close());

const scanCli = (args: string[], allowPrivate: boolean) =>
  run('npm', ['run', '-s', 'scan', '--', ...args], {
    env: { ...process.env, SCANNER_ALLOW_PRIVATE_TARGETS: String(allowPrivate) },
  });

describe('npm run scan', () => {
  it('prints its usage with --help and exits 0', async () => {
    const { stdout } = await scanCli(['--help'], false);
    expect(stdout).toMatch(/^Usage: npm run -s scan -- <url> \[--json\]/);
  });

  it('prints the result object with --json', async () => {
    const { stdout, stderr } = await scanCli([site.url, '--json'], true);
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ url: site.url, detected_platform: 'wordpress' });
    expect(['zwak', 'kritiek']).toContain(result.grade);
    expect(stderr).toContain('Pagina ophalen');
  });

  it('prints a readable report grouped by severity', async () => {
    const { stdout } = await scanCli([site.url], true);
    expect(stdout).toMatch(/Cijfer: (zwak|kritiek)/);
    expect(stdout).toMatch(/CRITICAL \(\d+\)[\s\S]*HIGH \(\d+\)[\s\S]*MEDIUM \(\d+\)[\s\S]*LOW \(\d+\)/);
    expect(stdout).toContain('/.git/config');
  });

  it('refuses private targets unless the setting allows them', async () => {
    const failure = await scanCli([site.url, '--json'], false).catch((error) => error);
    expect(failure.code).toBe(1);
    expect(failure.stdout).toBe('');
    expect(failure.stderr).toMatch(/geweigerd/);
    expect(failure.stderr).toContain('SCANNER_ALLOW_PRIVATE_TARGETS=true');
    expect(site.requests.filter((r) => r === 'GET /.git/config')).toHaveLength(2);
  });
});
