import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './support/net.ts';
import { killWithThisProcess } from './support/orphan-guard.ts';

const ROOT = resolve(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'scanner-walkthrough-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The shell block under "### Walk-through" in the README, as a user copies it. */
function walkthroughFromReadme(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Walk-through'));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('no walk-through block in the README');
  return block[1]!;
}

describe('the README walk-through', () => {
  it('runs as written against a fresh database, with no internet', async () => {
    // `npm ci` already ran for this checkout; everything after it runs verbatim.
    const script = walkthroughFromReadme().replace(/^npm ci\b.*$/m, ':');
    const [port, demoPort] = await Promise.all([freePort(), freePort()]);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      DEMO_PORT: String(demoPort),
      DATABASE_PATH: join(dir, 'walkthrough.db'),
      LOG_LEVEL: 'warn',
    };
    delete env.SCANNER_ALLOW_PRIVATE_TARGETS;
    // A job-control shell, as a user's terminal is, so `kill %1 %2` finds the background jobs.
    const shell = killWithThisProcess(
      spawn('bash', ['-c', `set -m\n${script}\nwait`], {
        cwd: ROOT,
        env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
      { group: true },
    );
    let stdout = '';
    let stderr = '';
    shell.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    shell.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const code = await new Promise<number | null>((done) => shell.once('exit', done)).finally(() => {
      try {
        process.kill(-shell.pid!, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    });
    expect(code, stderr.slice(-2000)).toBe(0);
    const parse = (line: string) => {
      try {
        return JSON.parse(line);
      } catch {
        return null; // the docs line is cut at 200 bytes on purpose
      }
    };
    const json = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map(parse)
      .filter(Boolean);
    expect(json.find((o) => o.authenticated)).toMatchObject({
      authenticated: true,
      endpoints: { sites: '/api/agent/sites' },
    });
    const created = json.find((o) => o.scan_id && o.detail_url);
    expect(created, `${stdout.slice(-1500)}\n${stderr.slice(-1500)}`).toBeTruthy();
    expect(['zwak', 'kritiek']).toContain(created.grade);
    const detail = json.find((o) => o.id === created.scan_id);
    const types = detail.findings.map((f: { finding_type: string }) => f.finding_type);
    expect(types).toEqual(
      expect.arrayContaining(['exposed_git_config', 'exposed_env_file', 'exposed_phpinfo', 'https_unavailable']),
    );
    expect(detail.detected_platform).toBe('wordpress');
    expect(json.find((o) => o.summary)).toMatchObject({
      findings: expect.arrayContaining([expect.objectContaining({ finding_type: 'exposed_git_config' })]),
    });
    expect(json.find((o) => o.suggestion)).toMatchObject({ suggestion: { status: 'pending' } });
    expect(json.find((o) => Array.isArray(o.webhooks))).toMatchObject({
      webhooks: [expect.objectContaining({ url: 'https://hooks.acme.nl/scanner' })],
    });
  }, 120_000);
});
