import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { guardedLookup, type AddressPolicy } from './address-policy.ts';
import { refusalIn } from './errors.ts';

// A raw TLS 1.2 ClientHello offering a chosen list of cipher suites, and a reader of the server's
// first answer: the suite from its ServerHello, or nothing when it sends an alert or closes. This is
// how testssl.sh tests suites its OpenSSL lacks; no key exchange is made, only the choice is read.

const u16 = (n: number) => Buffer.from([(n >> 8) & 0xff, n & 0xff]);
const u24 = (n: number) => Buffer.from([(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]);
const withLength16 = (body: Buffer) => Buffer.concat([u16(body.length), body]);
const extension = (type: number, body: Buffer) => Buffer.concat([u16(type), withLength16(body)]);

const SUPPORTED_GROUPS = [0x001d, 0x0017, 0x0018, 0x0019, 0x0015, 0x0013, 0x0100, 0x0101];
// SHA-2 and SHA-1 with RSA, ECDSA, RSA-PSS and DSA: the client must not be the reason a suite fails.
const SIGNATURE_ALGORITHMS = [0x0401, 0x0501, 0x0601, 0x0403, 0x0503, 0x0603, 0x0804, 0x0805, 0x0806, 0x0201, 0x0203, 0x0202, 0x0402];
const RENEGOTIATION_SCSV = 0x00ff;

export function clientHello(suites: readonly number[], serverName: string | null): Buffer {
  const extensions = [
    extension(0x000a, withLength16(Buffer.concat(SUPPORTED_GROUPS.map(u16)))),
    extension(0x000b, Buffer.from([0x01, 0x00])),
    extension(0x000d, withLength16(Buffer.concat(SIGNATURE_ALGORITHMS.map(u16)))),
  ];
  if (serverName) {
    const name = Buffer.from(serverName, 'ascii');
    extensions.unshift(extension(0x0000, withLength16(Buffer.concat([Buffer.from([0x00]), withLength16(name)]))));
  }
  const body = Buffer.concat([
    Buffer.from([0x03, 0x03]),
    randomBytes(32),
    Buffer.from([0x00]),
    withLength16(Buffer.concat([...suites, RENEGOTIATION_SCSV].map(u16))),
    Buffer.from([0x01, 0x00]),
    withLength16(Buffer.concat(extensions)),
  ]);
  const handshake = Buffer.concat([Buffer.from([0x01]), u24(body.length), body]);
  return Buffer.concat([Buffer.from([0x16, 0x03, 0x01]), withLength16(handshake)]);
}

/**
 * The cipher suite a ServerHello in `data` chose; null when the answer is an alert or anything else,
 * undefined while more bytes are needed.
 */
export function serverHelloSuite(data: Buffer): number | null | undefined {
  if (data.length < 5) return undefined;
  if (data[0] !== 0x16 || data[1] !== 0x03) return null;
  const fragment = data.subarray(5, 5 + data.readUInt16BE(3));
  // type(1) length(3) version(2) random(32) session_id_length(1)
  if (fragment.length < 39) return data.length >= 5 + data.readUInt16BE(3) ? null : undefined;
  if (fragment[0] !== 0x02) return null;
  const sessionIdLength = fragment[38]!;
  const at = 39 + sessionIdLength;
  if (fragment.length < at + 2) return data.length >= 5 + data.readUInt16BE(3) ? null : undefined;
  return fragment.readUInt16BE(at);
}

export interface OfferOptions extends AddressPolicy {
  timeoutMs: number;
  signal: AbortSignal;
}

/** Whether the server picks one of `suites`; false on refusal, silence, a timeout or an abort. */
export function serverAccepts(host: string, port: number, suites: readonly number[], options: OfferOptions): Promise<boolean> {
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) return resolve(false);
    let received = Buffer.alloc(0);
    const socket = net.connect({ host, port, lookup: guardedLookup(options) });
    const done = (accepted: boolean, error?: unknown) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', abort);
      socket.destroy();
      const refusal = error ? refusalIn(error) : null;
      if (refusal) reject(refusal);
      else resolve(accepted);
    };
    const abort = () => done(false);
    const timer = setTimeout(abort, options.timeoutMs);
    options.signal.addEventListener('abort', abort);
    socket.on('connect', () => socket.write(clientHello(suites, net.isIP(host) ? null : host)));
    socket.on('data', (chunk: Buffer) => {
      // A ServerHello fits in a few hundred bytes; never buffer more than a record. Whatever the
      // bytes, a parsing fault ends this probe, never the process.
      try {
        received = Buffer.concat([received, chunk]).subarray(0, 16_384 + 5);
        const suite = serverHelloSuite(received);
        if (suite !== undefined) done(suite !== null && suites.includes(suite));
      } catch {
        done(false);
      }
    });
    socket.on('end', () => done(false));
    socket.on('error', (error) => done(false, error));
  });
}
