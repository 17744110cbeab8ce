import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { HARDENED_TLS, certificate } from './fixture-sites.ts';

/** A mail as the relay received it: envelope and the decoded text of the message. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** The message with quoted-printable and base64 parts decoded, for searching. */
  text: string;
  headers: Record<string, string>;
}

export interface MailRelay {
  port: number;
  /** The relay's URL for SMTP_URL, and the CA file its certificate chains to (SMTP_CA_FILE). */
  env: { SMTP_URL: string; SMTP_CA_FILE: string };
  mails: ReceivedMail[];
  /** Every mail's recipients refused with this code (550: permanent, 451: try later); null accepts. */
  refuse: number | null;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Quoted-printable and base64 bodies as text, so a test can search what a reader would see. */
function decoded(raw: string): string {
  const qp = raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  const base64Parts = [
    ...raw.matchAll(/Content-Transfer-Encoding: base64\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/g),
  ].map((m) => Buffer.from(m[1]!.replace(/\s/g, ''), 'base64').toString('utf8'));
  return Buffer.from([qp, ...base64Parts].join('\n'), 'latin1').toString('utf8');
}

function headersOf(raw: string): Record<string, string> {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** The npm package smtp-server on loopback with STARTTLS and a certificate of the test CA; it keeps every mail. */
export async function startMailRelay(): Promise<MailRelay> {
  const cert = certificate({ hosts: ['127.0.0.1', 'localhost'] });
  let server: SMTPServer | null = null;
  const relay: MailRelay = {
    port: 0,
    env: { SMTP_URL: '', SMTP_CA_FILE: join(process.env.TEST_CA_DIR!, 'ca.pem') },
    mails: [],
    refuse: null,
    async start() {
      server = new SMTPServer({
        name: 'relay.test',
        logger: false,
        authOptional: true,
        disabledCommands: ['AUTH'],
        key: cert.keyPem,
        cert: cert.certPem,
        ...HARDENED_TLS,
        minVersion: 'TLSv1.2',
        onRcptTo(_address, _session, callback) {
          if (relay.refuse) return callback(Object.assign(new Error('refused'), { responseCode: relay.refuse }));
          callback();
        },
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            const raw = Buffer.concat(chunks).toString('latin1');
            relay.mails.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              raw,
              text: decoded(raw),
              headers: headersOf(raw),
            });
            callback();
          });
        },
      });
      server.on('error', () => {});
      await new Promise<void>((resolve) => server!.listen(relay.port, '127.0.0.1', () => resolve()));
      relay.port = (server.server.address() as { port: number }).port;
      relay.env.SMTP_URL = `smtp://127.0.0.1:${relay.port}`;
    },
    async stop() {
      const running = server;
      server = null;
      if (running) await new Promise<void>((resolve) => running.close(() => resolve()));
    },
    close() {
      return relay.stop();
    },
  };
  await relay.start();
  return relay;
}
