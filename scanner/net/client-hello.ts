import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { guardedLookup, type AddressPolicy } from './address-policy.ts';
import { refusalIn } from '../errors.ts';
import { suiteFacts } from '../rules/tls-guideline.ts';

// A raw TLS 1.2 ClientHello offering chosen cipher suites, groups and signature schemes, and a reader
// of the server's first flight: ServerHello (suite, compression, extensions) and ServerKeyExchange
// (ECDHE curve or DH prime, and the hash that signs it). This is how testssl.sh tests suites its
// OpenSSL lacks; no key exchange is finished, only the server's choices are read.

const u16 = (n: number) => Buffer.from([(n >> 8) & 0xff, n & 0xff]);
const u24 = (n: number) => Buffer.from([(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]);
const withLength16 = (body: Buffer) => Buffer.concat([u16(body.length), body]);
const extension = (type: number, body: Buffer) => Buffer.concat([u16(type), withLength16(body)]);

export const EXTENSION = {
  serverName: 0x0000,
  supportedGroups: 0x000a,
  extendedMasterSecret: 0x0017,
  renegotiationInfo: 0xff01,
} as const;

/** Good curves first, then the rest, then RFC 7919 groups: the client must not be the reason a suite fails. */
export const DEFAULT_GROUPS = [
  0x001d, 0x0017, 0x0018, 0x0019, 0x001e, 0x001a, 0x001b, 0x001c, 0x0015, 0x0016, 0x0013, 0x0100, 0x0101, 0x0102,
];
// SHA-2 and SHA-1 with RSA, ECDSA, RSA-PSS and DSA, strongest first.
const DEFAULT_SIGNATURE_SCHEMES = [
  0x0804, 0x0805, 0x0806, 0x0401, 0x0501, 0x0601, 0x0403, 0x0503, 0x0603, 0x0402, 0x0301, 0x0303, 0x0201, 0x0203,
  0x0202,
];
const RENEGOTIATION_SCSV = 0x00ff;
const COMPRESSION_DEFLATE = 0x01;

export interface HelloOffer {
  suites: readonly number[];
  groups?: readonly number[];
  signatureSchemes?: readonly number[];
}

export function clientHello(offer: HelloOffer, serverName: string | null): Buffer {
  const extensions = [
    extension(EXTENSION.supportedGroups, withLength16(Buffer.concat((offer.groups ?? DEFAULT_GROUPS).map(u16)))),
    extension(0x000b, Buffer.from([0x01, 0x00])),
    extension(0x000d, withLength16(Buffer.concat((offer.signatureSchemes ?? DEFAULT_SIGNATURE_SCHEMES).map(u16)))),
    extension(EXTENSION.extendedMasterSecret, Buffer.alloc(0)),
  ];
  if (serverName) {
    const name = Buffer.from(serverName, 'ascii');
    extensions.unshift(
      extension(EXTENSION.serverName, withLength16(Buffer.concat([Buffer.from([0x00]), withLength16(name)]))),
    );
  }
  const body = Buffer.concat([
    Buffer.from([0x03, 0x03]),
    randomBytes(32),
    Buffer.from([0x00]),
    withLength16(Buffer.concat([...offer.suites, RENEGOTIATION_SCSV].map(u16))),
    // DEFLATE before null: a server that still compresses (CRIME) picks it.
    Buffer.from([0x02, COMPRESSION_DEFLATE, 0x00]),
    withLength16(Buffer.concat(extensions)),
  ]);
  const handshake = Buffer.concat([Buffer.from([0x01]), u24(body.length), body]);
  return Buffer.concat([Buffer.from([0x16, 0x03, 0x01]), withLength16(handshake)]);
}

export type KeyExchangeFacts =
  | { kind: 'ecdhe'; group: number; signatureScheme: number | null }
  | { kind: 'dhe'; prime: Buffer; generator: Buffer; signatureScheme: number | null };

/** What the server chose in answer to one ClientHello. */
export interface ServerChoice {
  /** ServerHello's version: 0x0303 for TLS 1.2, lower when the server downgraded. */
  version: number;
  suite: number;
  compression: number;
  /** Extension types the ServerHello carries. */
  extensions: number[];
  /** Null for suites without ServerKeyExchange, or when the flight broke off before it. */
  keyExchange: KeyExchangeFacts | null;
}

type FlightState =
  | { state: 'more'; hello: ServerChoice | null }
  | { state: 'refused' }
  | { state: 'done'; hello: ServerChoice };

function parseServerHello(body: Buffer): ServerChoice {
  const sessionIdLength = body[34]!;
  let at = 35 + sessionIdLength;
  const suite = body.readUInt16BE(at);
  const compression = body[at + 2]!;
  at += 3;
  const extensions: number[] = [];
  if (body.length >= at + 2) {
    const end = Math.min(body.length, at + 2 + body.readUInt16BE(at));
    for (at += 2; at + 4 <= end; at += 4 + body.readUInt16BE(at + 2)) extensions.push(body.readUInt16BE(at));
  }
  return { version: body.readUInt16BE(0), suite, compression, extensions, keyExchange: null };
}

/** The signature scheme after the parameters; TLS 1.0/1.1 have none (MD5+SHA-1 is implied). */
function schemeAt(body: Buffer, at: number, version: number): number | null {
  return version >= 0x0303 && body.length >= at + 2 ? body.readUInt16BE(at) : null;
}

function parseKeyExchange(body: Buffer, kind: 'ecdhe' | 'dhe', version: number): KeyExchangeFacts | null {
  if (kind === 'ecdhe') {
    // curve_type 3 (named_curve), NamedGroup, point
    if (body[0] !== 3 || body.length < 4) return null;
    return { kind, group: body.readUInt16BE(1), signatureScheme: schemeAt(body, 4 + body[3]!, version) };
  }
  const vectors: Buffer[] = [];
  let at = 0;
  for (let i = 0; i < 3; i++) {
    if (body.length < at + 2) return null;
    const length = body.readUInt16BE(at);
    vectors.push(body.subarray(at + 2, at + 2 + length));
    at += 2 + length;
  }
  return {
    kind,
    prime: Buffer.from(vectors[0]!),
    generator: Buffer.from(vectors[1]!),
    signatureScheme: schemeAt(body, at, version),
  };
}

/**
 * Reads the server's flight so far: its records' handshake messages up to ServerHelloDone. An alert
 * or anything else before a ServerHello is a refusal.
 */
export function readServerFlight(data: Buffer): FlightState {
  const handshake: Buffer[] = [];
  let at = 0;
  let broken = false;
  while (data.length >= at + 5) {
    const type = data[at]!;
    if ((type !== 0x16 && type !== 0x15) || data[at + 1] !== 0x03) {
      broken = true;
      break;
    }
    const length = data.readUInt16BE(at + 3);
    if (data.length < at + 5 + length) break;
    if (type === 0x15) {
      broken = true;
      break;
    }
    handshake.push(data.subarray(at + 5, at + 5 + length));
    at += 5 + length;
  }
  const messages = Buffer.concat(handshake);
  let hello: ServerChoice | null = null;
  for (let m = 0; messages.length >= m + 4; ) {
    const type = messages[m]!;
    const length = messages.readUIntBE(m + 1, 3);
    if (messages.length < m + 4 + length) break;
    const body = messages.subarray(m + 4, m + 4 + length);
    m += 4 + length;
    if (!hello) {
      if (type !== 0x02 || body.length < 38) return { state: 'refused' };
      hello = parseServerHello(body);
      continue;
    }
    if (type === 0x0c) {
      const kind = suiteFacts(hello.suite).keyExchange;
      if (kind) hello.keyExchange = parseKeyExchange(body, kind, hello.version);
      return { state: 'done', hello };
    }
    if (type === 0x0e) return { state: 'done', hello };
  }
  if (broken) return hello ? { state: 'done', hello } : { state: 'refused' };
  return { state: 'more', hello };
}

export interface OfferOptions extends AddressPolicy {
  timeoutMs: number;
  signal: AbortSignal;
  /** Opens the plain connection TLS starts on (SMTP's STARTTLS); a direct TCP connection without it. */
  open?: () => Promise<net.Socket>;
}

/** The connection a ClientHello goes out on: `open`'s (null when it failed) or a direct one. */
export async function plainSocket(options: OfferOptions): Promise<net.Socket | 'direct' | null> {
  if (!options.open) return 'direct';
  try {
    return await options.open();
  } catch (error) {
    const refusal = refusalIn(error);
    if (refusal) throw refusal;
    return null;
  }
}

/** Certificate chains make the flight long; past this, what was read is the answer. */
const MAX_FLIGHT_BYTES = 96 * 1024;

/**
 * Sends one ClientHello and reads what the server chose; null on refusal, silence, a timeout or an
 * abort. A refused address rejects, as every other connection of a scan does.
 */
export async function offer(
  host: string,
  port: number,
  hello: HelloOffer,
  options: OfferOptions,
): Promise<ServerChoice | null> {
  const plain = await plainSocket(options);
  if (plain === null) return null;
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) {
      if (plain !== 'direct') plain.destroy();
      return resolve(null);
    }
    let received = Buffer.alloc(0);
    let settled = false;
    let partial: ServerChoice | null = null;
    const socket = plain === 'direct' ? net.connect({ host, port, lookup: guardedLookup(options) }) : plain;
    const done = (choice: ServerChoice | null, error?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', abort);
      socket.destroy();
      const refusal = error ? refusalIn(error) : null;
      if (refusal) reject(refusal);
      else resolve(choice);
    };
    // A ServerHello that arrived stands even when the rest of the flight does not.
    const abort = () => done(partial);
    const timer = setTimeout(abort, options.timeoutMs);
    options.signal.addEventListener('abort', abort);
    const send = () => socket.write(clientHello(hello, net.isIP(host) ? null : host));
    if (plain === 'direct') socket.on('connect', send);
    else send();
    socket.on('data', (chunk: Buffer) => {
      // Whatever the bytes, a parsing fault ends this probe, never the process.
      try {
        received = Buffer.concat([received, chunk]);
        const flight = readServerFlight(received);
        if (flight.state === 'refused') return done(null);
        if (flight.state === 'done') return done(flight.hello);
        partial = flight.hello;
        if (received.length > MAX_FLIGHT_BYTES) done(partial);
      } catch {
        done(partial);
      }
    });
    socket.on('end', () => done(partial));
    socket.on('close', () => done(partial));
    socket.on('error', (error) => done(partial, error));
  });
}
