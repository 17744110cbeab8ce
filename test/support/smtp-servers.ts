import { createServer } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { HARDENED_TLS } from './fixture-sites.ts';
import type { KeyAndCert } from './test-ca.ts';

// Mail servers for the mail lab, on port 25 as the internet has them (the test run's own network
// namespace, bin/test.mjs): the npm package smtp-server with STARTTLS, one without it, one that
// greets with 421 (a rate limit). Each counts the connections it accepted.

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
