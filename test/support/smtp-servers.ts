import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { HARDENED_TLS } from './fixture-sites.ts';
import { killWithThisProcess } from './orphan-guard.ts';
import { waitFor } from './receiver.ts';
import type { KeyAndCert } from './test-ca.ts';

// Mail servers for the mail lab, on port 25 as the internet has them (the test run's own network
// namespace, bin/test.mjs): the npm package smtp-server with STARTTLS, one without it, one that
// greets with 421 (a rate limit); and Debian's exim4-daemon-light (GnuTLS). Each counts the
// connections it accepted.

export type SmtpBehaviour = 'starttls' | 'plain' | 'busy';

export interface SmtpFixture {
  host: string;
  behaviour: SmtpBehaviour;
  readonly connections: number;
  close: () => Promise<void>;
}

/** Whether this test run owns port 25 (its own network namespace as root, bin/test.mjs). */
export async function port25Available(): Promise<boolean> {
  if (process.env.TEST_NETNS !== '1') return false;
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(25, '127.0.0.9', () => probe.close(() => resolve(true)));
  });
}

/** One SMTP server on `host` port 25 (127.0.0.0/8 is all loopback: each behaviour gets its own address). */
export async function startSmtpFixture(host: string, behaviour: SmtpBehaviour, cert: KeyAndCert): Promise<SmtpFixture> {
  let connections = 0;
  const server = new SMTPServer({
    name: 'mx.lab.test',
    banner: 'lab mail server',
    logger: false,
    authOptional: true,
    disabledCommands: behaviour === 'starttls' ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    key: cert.keyPem,
    cert: cert.certPem,
    ...HARDENED_TLS,
    minVersion: 'TLSv1.2',
    onConnect(_session, callback) {
      connections += 1;
      if (behaviour === 'busy')
        return callback(Object.assign(new Error('too many connections, try again later'), { responseCode: 421 }));
      callback();
    },
    // Nothing is ever delivered: a scanner that sent MAIL FROM would be refused here.
    onMailFrom(_address, _session, callback) {
      callback(Object.assign(new Error('no mail accepted in the lab'), { responseCode: 550 }));
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(25, host, () => resolve());
  });
  return {
    host,
    behaviour,
    get connections() {
      return connections;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const EXIM = '/usr/sbin/exim4';

/** Whether Debian's exim4-daemon-light is installed (GnuTLS: a second TLS stack beside Node's OpenSSL). */
export const eximAvailable = (): boolean => existsSync(EXIM);

/**
 * Exim as a mail server on `host` port 25 with STARTTLS (its own configuration, run as root in the
 * test run's network namespace), refusing every recipient: nothing is ever delivered.
 */
export async function startExim(host: string, cert: KeyAndCert): Promise<SmtpFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'exim-'));
  const uid = Number(execFileSync('id', ['-u', 'Debian-exim']).toString().trim());
  for (const sub of ['spool', 'log']) mkdirSync(join(dir, sub));
  writeFileSync(join(dir, 'cert.pem'), cert.certPem);
  writeFileSync(join(dir, 'key.pem'), cert.keyPem, { mode: 0o640 });
  for (const path of [dir, join(dir, 'spool'), join(dir, 'log'), join(dir, 'key.pem')]) chownSync(path, uid, 0);
  writeFileSync(
    join(dir, 'exim.conf'),
    [
      'primary_hostname = mx.exim.lab.test',
      'daemon_smtp_ports = 25',
      `local_interfaces = <; ${host}`,
      `spool_directory = ${join(dir, 'spool')}`,
      `log_file_path = ${join(dir, 'log')}/%slog`,
      `pid_file_path = ${join(dir, 'exim.pid')}`,
      `tls_certificate = ${join(dir, 'cert.pem')}`,
      `tls_privatekey = ${join(dir, 'key.pem')}`,
      'tls_advertise_hosts = *',
      'acl_smtp_rcpt = refuse_all',
      'begin acl',
      'refuse_all:',
      '  deny message = no mail accepted in the lab',
      'begin routers',
      'begin transports',
      '',
    ].join('\n'),
  );
  const child = killWithThisProcess(
    spawn(EXIM, ['-C', join(dir, 'exim.conf'), '-bdf'], { stdio: ['ignore', 'ignore', 'pipe'] }),
  );
  let errors = '';
  child.stderr?.on('data', (chunk) => (errors += chunk));
  const greets = () =>
    new Promise<boolean>((resolve) => {
      const socket = connect({ host, port: 25 }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
  try {
    await waitFor(greets, 10_000);
  } catch {
    child.kill('SIGKILL');
    throw new Error(`exim did not start: ${errors.slice(0, 2000)}`);
  }
  const log = join(dir, 'log', 'mainlog');
  return {
    host,
    behaviour: 'starttls',
    // Exim logs every connection it accepted (one greeting each).
    get connections() {
      return existsSync(log) ? (readFileSync(log, 'utf8').match(/SMTP connection from/g) ?? []).length : 0;
    },
    close: async () => {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
