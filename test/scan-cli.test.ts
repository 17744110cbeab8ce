import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureSite } from './support/fixture-sites.ts';
import { runScan } from '../bin/scan-cli.ts';
import type { SarifLog } from '../scanner/report/sarif.ts';
import { expectValidSarif } from './support/sarif-schema.ts';
import { hardenedSite, leakyWordPressSite } from './support/sites.ts';

const run = promisify(execFile);
let site: FixtureSite;
let hardened: FixtureSite;
beforeAll(async () => {
  [site, hardened] = await Promise.all([leakyWordPressSite(), hardenedSite()]);
});
afterAll(async () => Promise.all([site.close(), hardened.close()]));

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
    // The same internet.nl section as the service gives: an IP address has no zone to test.
    expect(result.internetnl).toMatchObject({
      categories: { dnssec: { status: 'not_tested' }, ipv6: { status: 'not_tested' } },
    });
    expect(result.internetnl.categories.tls.tests.length).toBeGreaterThan(0);
  });

  it('prints a readable report grouped by severity', async () => {
    const { stdout } = await scanWithCode([site.url]);
    expect(stdout).toMatch(/Cijfer: (zwak|kritiek)/);
    expect(stdout).toMatch(/CRITICAL \(\d+\)[\s\S]*HIGH \(\d+\)[\s\S]*MEDIUM \(\d+\)[\s\S]*LOW \(\d+\)/);
    expect(stdout).toContain('/.git/config');
  });

  it('refuses private targets unless the setting allows them', async () => {
    const failure = await scanWithCode([site.url, '--json'], { SCANNER_ALLOW_PRIVATE_TARGETS: 'false' });
    expect(failure.code).toBe(1);
    expect(failure.stdout).toBe('');
    expect(failure.stderr).toMatch(/geweigerd/);
    expect(failure.stderr).toContain('SCANNER_ALLOW_PRIVATE_TARGETS=true');
    expect(site.requests.filter((r) => r === 'GET /.git/config')).toHaveLength(2);
  });
});

/** Runs the command in-process (the literal `npm run -s scan` is covered above) with its exit code and output. */
async function scanWithCode(args: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runScan(args, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    env: { ...process.env, SCANNER_ALLOW_PRIVATE_TARGETS: 'true', ...env },
  });
  return { code, stdout, stderr };
}

describe('npm run scan -- --format sarif and --fail-on', () => {
  it('prints a valid SARIF log (and keeps --json)', async () => {
    const sarif = await scanWithCode([site.url, '--format', 'sarif']);
    expect(sarif.code).toBe(0);
    const log = JSON.parse(sarif.stdout) as SarifLog;
    expectValidSarif(log);
    expect((log.runs[0] as { results: unknown[] }).results.length).toBeGreaterThan(10);
    const json = await scanWithCode([site.url, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ url: site.url });
  });

  it('exits 1 when a finding at or above the threshold is present, 0 when none is', async () => {
    expect((await scanWithCode([site.url, '--fail-on', 'critical', '--format', 'sarif'])).code).toBe(1);
    // The hardened site has LOW findings only.
    expect((await scanWithCode([hardened.url, '--fail-on', 'medium'])).code).toBe(0);
    expect((await scanWithCode([hardened.url, '--fail-on', 'low'])).code).toBe(1);
  });

  it('exits 2 when the scan could not run, and on wrong usage', async () => {
    const refused = await scanWithCode([site.url, '--fail-on', 'high'], { SCANNER_ALLOW_PRIVATE_TARGETS: 'false' });
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toMatch(/geweigerd/);
    expect((await scanWithCode(['ftp://example.nl/', '--fail-on', 'high'])).code).toBe(2);
    expect((await scanWithCode(['http://127.0.0.1:1/', '--fail-on', 'low'])).code).toBe(2);
    expect((await scanWithCode([site.url, '--fail-on', 'ernstig'])).code).toBe(2);
    expect((await scanWithCode([site.url, '--format', 'xml'])).code).toBe(2);
  });
});
