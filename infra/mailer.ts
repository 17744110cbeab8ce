import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from './config.ts';

/** One mail as the service sends it: text and HTML, and any headers (List-Unsubscribe). */
export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
  close(): void;
}

/** Why a mail was not accepted; `permanent` for a 5xx answer (the address or the message is refused for good). */
export class MailError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

const loopback = (host: string) => host === 'localhost' || (isIP(host) !== 0 && /^(127\.|::1$)/.test(host));

/**
 * The relay of SMTP_URL through nodemailer. smtp:// must upgrade with STARTTLS (a loopback relay
 * excepted, as a local postfix often has no certificate), smtps:// speaks TLS from the start; the
 * certificate is checked against the system's CAs and SMTP_CA_FILE. Null without SMTP_URL.
 */
export function mailerFor(config: Pick<Config, 'SMTP_URL' | 'SMTP_CA_FILE'>): Mailer | null {
  if (!config.SMTP_URL) return null;
  const url = new URL(config.SMTP_URL);
  const secure = url.protocol === 'smtps:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const transport: Transporter = nodemailer.createTransport({
    host,
    port: Number(url.port || (secure ? 465 : 587)),
    secure,
    requireTLS: !secure && !loopback(host),
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    tls: {
      minVersion: 'TLSv1.2',
      servername: isIP(host) ? undefined : host,
      ...(config.SMTP_CA_FILE ? { ca: readFileSync(config.SMTP_CA_FILE, 'utf8') } : {}),
    },
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(mail) {
      try {
        const info = await transport.sendMail({ ...mail, disableUrlAccess: true, disableFileAccess: true });
        return { messageId: String(info.messageId) };
      } catch (error) {
        const code = (error as { responseCode?: number }).responseCode;
        const reason = code ? `SMTP ${code}` : ((error as { code?: string }).code ?? 'geen verbinding');
        throw new MailError(reason, code !== undefined && code >= 500);
      }
    },
    close: () => transport.close(),
  };
}

const shared = new WeakMap<object, Mailer | null>();

/** One mailer per configuration, kept (its connections pooled) for the process. */
export function sharedMailer(config: Pick<Config, 'SMTP_URL' | 'SMTP_CA_FILE'>): Mailer | null {
  if (!shared.has(config)) shared.set(config, mailerFor(config));
  return shared.get(config)!;
}
