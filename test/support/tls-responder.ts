import net from 'node:net';

export interface Responder {
  port: number;
  /** ClientHellos received. */
  hellos: number;
  close: () => Promise<void>;
}

const record = (type: number, body: Buffer) =>
  Buffer.concat([Buffer.from([type, 0x03, 0x03, body.length >> 8, body.length & 0xff]), body]);
const message = (type: number, body: Buffer) =>
  Buffer.concat([Buffer.from([type, body.length >> 16, (body.length >> 8) & 0xff, body.length & 0xff]), body]);

/** The suites a ClientHello offers, read at the fixed offsets of a TLS 1.2 hello. */
export function offeredSuites(hello: Buffer): number[] {
  const sessionLength = hello[43]!;
  const suitesAt = 44 + sessionLength;
  const count = hello.readUInt16BE(suitesAt) / 2;
  return Array.from({ length: count }, (_, i) => hello.readUInt16BE(suitesAt + 2 + i * 2));
}

/** A ServerHello picking `suite`, with the given compression method and (empty) extensions. */
export function serverHello(suite: number, options: { compression?: number; extensions?: number[] } = {}): Buffer {
  const extensions = Buffer.concat(
    (options.extensions ?? []).map((type) =>
      Buffer.from([type >> 8, type & 0xff, 0x00, type === 0xff01 ? 0x01 : 0x00, ...(type === 0xff01 ? [0x00] : [])]),
    ),
  );
  const body = Buffer.concat([
    Buffer.from([0x03, 0x03]),
    Buffer.alloc(32, 7),
    Buffer.from([0x00, suite >> 8, suite & 0xff, options.compression ?? 0]),
    Buffer.from([extensions.length >> 8, extensions.length & 0xff]),
    extensions,
  ]);
  return record(0x16, Buffer.concat([message(0x02, body), message(0x0e, Buffer.alloc(0))]));
}

export const HANDSHAKE_FAILURE = Buffer.from([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28]);

/**
 * A raw TLS responder on loopback, for servers Node's OpenSSL cannot be: `answer` gets each
 * ClientHello's offered suites and returns the bytes to send (then the connection ends), or null to
 * keep silent.
 */
export function startResponder(
  answer: (suites: number[], hello: Buffer) => Buffer | Buffer[] | null,
): Promise<Responder> {
  const sockets = new Set<net.Socket>();
  let hellos = 0;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.once('data', (hello: Buffer) => {
      hellos += 1;
      const reply = answer(offeredSuites(hello), hello);
      if (reply === null) return;
      for (const chunk of Array.isArray(reply) ? reply : [reply]) socket.write(chunk);
      socket.end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as net.AddressInfo).port,
        get hellos() {
          return hellos;
        },
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      }),
    ),
  );
}

/** An old server: picks the first offered suite it supports, or refuses with handshake_failure. */
export function legacyResponder(
  supported: number[],
  options: { compression?: number; extensions?: number[] } = {},
): Promise<Responder> {
  return startResponder((offered) => {
    const pick = offered.find((suite) => supported.includes(suite));
    return pick === undefined ? HANDSHAKE_FAILURE : serverHello(pick, options);
  });
}
