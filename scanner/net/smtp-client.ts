import net from 'node:net';
import { refusalIn } from '../errors.ts';
import { guardedLookup, type AddressPolicy } from './address-policy.ts';

// The SMTP side of a mail server test (RFC 5321 and RFC 3207): read the whole greeting, say EHLO,
// and when asked, STARTTLS, handing the socket over for TLS. No MAIL FROM is ever sent.

export interface SmtpOptions extends AddressPolicy {
  /** The name we say EHLO with (SCANNER_SMTP_HELO). */
  helo: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** 25 unless a test says otherwise. */
  port?: number;
}

/** A server reply: its code and text lines (multi-line replies joined). */
export interface SmtpReply {
  code: number;
  lines: string[];
}

/** Why a server could not be tested: never a verdict on STARTTLS. */
export class SmtpNotTestable extends Error {}

/** A reply longer than this is no SMTP server's. */
const MAX_REPLY_BYTES = 16 * 1024;

/**
 * Reads replies off a socket: each ends at a line "ddd " (RFC 5321 section 4.2.1); "ddd-" lines
 * continue it. Rejects on close, time-out, abort or a line that is no reply.
 */
function replyReader(socket: net.Socket, options: SmtpOptions) {
  let buffer = '';
  let waiting: { resolve: (reply: SmtpReply) => void; reject: (error: Error) => void } | null = null;
  let failure: Error | null = null;
  const lines: string[] = [];
  const fail = (error: Error) => {
    failure ??= error;
    waiting?.reject(failure);
    waiting = null;
  };
  const pump = () => {
    for (;;) {
      const end = buffer.indexOf('\n');
      if (end < 0) break;
      const line = buffer.slice(0, end).replace(/\r$/, '');
      buffer = buffer.slice(end + 1);
      const match = /^(\d{3})([ -])(.*)$/.exec(line) ?? /^(\d{3})()$/.exec(line);
      if (!match) return fail(new SmtpNotTestable('geen SMTP-antwoord'));
      lines.push(match[3] ?? '');
      if (match[2] !== '-') {
        const reply = { code: Number(match[1]), lines: lines.splice(0) };
        if (waiting) {
          waiting.resolve(reply);
          waiting = null;
        } else pending.push(reply);
      }
    }
    if (buffer.length > MAX_REPLY_BYTES) fail(new SmtpNotTestable('een te lang SMTP-antwoord'));
  };
  const pending: SmtpReply[] = [];
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString('latin1');
    pump();
  };
  socket.on('data', onData);
  socket.once('close', () => fail(new SmtpNotTestable('de server verbrak de verbinding')));
  socket.on('error', (error) => fail(refusalIn(error) ?? new SmtpNotTestable('verbinding mislukt')));
  return {
    next(): Promise<SmtpReply> {
      const ready = pending.shift();
      if (ready) return Promise.resolve(ready);
      if (failure) return Promise.reject(failure);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => fail(new SmtpNotTestable(`time-out na ${options.timeoutMs} ms`)),
          options.timeoutMs,
        );
        const clear = () => clearTimeout(timer);
        const abort = () => fail(new SmtpNotTestable('afgebroken'));
        options.signal.addEventListener('abort', abort, { once: true });
        waiting = {
          resolve: (reply) => {
            clear();
            options.signal.removeEventListener('abort', abort);
            resolve(reply);
          },
          reject: (error) => {
            clear();
            options.signal.removeEventListener('abort', abort);
            reject(error);
          },
        };
      });
    },
    /** Stops reading: the socket is someone else's now (TLS). */
    detach() {
      socket.off('data', onData);
      socket.removeAllListeners('close');
      socket.removeAllListeners('error');
    },
  };
}

export interface SmtpSession {
  socket: net.Socket;
  greeting: SmtpReply;
  /** The EHLO answer lists STARTTLS. */
  offersStartTls: boolean;
  read: ReturnType<typeof replyReader>;
}

/**
 * Connects to one address of an MX host, reads the greeting, says EHLO. A greeting other than 220
 * (a 421, a 554), a time-out or no EHLO answer throws SmtpNotTestable with the reason.
 */
export async function openSmtp(host: string, address: string, options: SmtpOptions): Promise<SmtpSession> {
  if (options.signal.aborted) throw new SmtpNotTestable('afgebroken');
  const socket = net.connect({
    host,
    port: options.port ?? 25,
    lookup: guardedLookup({ ...options, pinnedAddress: address }),
  });
  const read = replyReader(socket, options);
  try {
    const greeting = await read.next();
    if (greeting.code !== 220)
      throw new SmtpNotTestable(
        `de server antwoordde ${greeting.code} ${greeting.lines[0]?.slice(0, 100) ?? ''}`.trim(),
      );
    socket.write(`EHLO ${options.helo}\r\n`);
    const ehlo = await read.next();
    if (ehlo.code !== 250) throw new SmtpNotTestable(`geen antwoord op EHLO (${ehlo.code})`);
    return { socket, greeting, offersStartTls: ehlo.lines.some((line) => /^STARTTLS\b/i.test(line)), read };
  } catch (error) {
    socket.destroy();
    throw error;
  }
}

/** STARTTLS on an open session: the socket, ready for a TLS ClientHello. */
export async function startTls(session: SmtpSession): Promise<net.Socket> {
  session.socket.write('STARTTLS\r\n');
  const reply = await session.read.next();
  if (reply.code !== 220) {
    session.socket.destroy();
    throw new SmtpNotTestable(`STARTTLS geweigerd (${reply.code})`);
  }
  session.read.detach();
  return session.socket;
}

/** Closes politely: QUIT, then the socket. */
export function closeSmtp(session: SmtpSession): void {
  session.socket.end('QUIT\r\n');
  session.socket.destroy();
}
