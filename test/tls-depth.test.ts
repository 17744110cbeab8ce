import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { RC4_SUITES, TRIPLE_DES_SUITES, EXPORT_SUITES, FORWARD_SECRET_SUITES } from '../scanner/cipher-suites.ts';
import { serverAccepts } from '../scanner/client-hello.ts';
import { scanSite } from '../scanner/index.ts';
import type { FixtureSite } from './support/fixture-sites.ts';
import { startTlsSite, TLS_CASES } from './support/tls-sites.ts';

const sites: Array<{ close: () => Promise<void> }> = [];

/** Listens on loopback; close() also ends the connections still open. */
function listening(server: net.Server): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const closable = {
        port: (server.address() as net.AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      };
      sites.push(closable);
      resolve(closable);
    }),
  );
}
afterAll(async () => Promise.all(sites.map((site) => site.close())));

describe('TLS checks at testssl.sh depth, against real TLS servers', () => {
  it.each(TLS_CASES)('$name', async (tlsCase) => {
    const site: FixtureSite = await startTlsSite(tlsCase);
    sites.push(site);
    const result = await scanSite(site.url, { allowPrivateTargets: true, probeExposures: false });
    const serious = result.findings.filter((f) => f.severity !== 'LOW').map((f) => f.finding_type);
    expect(serious.sort()).toEqual([...tlsCase.expected].sort());
  });
});

/**
 * Node's OpenSSL can neither serve nor offer RC4, 3DES or EXPORT suites, so these are found by raw
 * ClientHellos; this responder answers them as an old server does: a ServerHello picking the first
 * offered suite it supports, or a handshake_failure alert.
 */
function legacyResponder(supported: number[]): Promise<{ port: number; close: () => Promise<void> }> {
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', (hello: Buffer) => {
      const sessionLength = hello[43]!;
      const suitesAt = 44 + sessionLength;
      const count = hello.readUInt16BE(suitesAt) / 2;
      const offered = Array.from({ length: count }, (_, i) => hello.readUInt16BE(suitesAt + 2 + i * 2));
      const pick = offered.find((suite) => supported.includes(suite));
      if (pick === undefined) return socket.end(Buffer.from([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28]));
      const body = Buffer.concat([Buffer.from([0x03, 0x03]), Buffer.alloc(32, 7), Buffer.from([0x00]), Buffer.from([pick >> 8, pick & 0xff, 0x00])]);
      const handshake = Buffer.concat([Buffer.from([0x02, 0x00, body.length >> 8, body.length & 0xff]), body]);
      socket.end(Buffer.concat([Buffer.from([0x16, 0x03, 0x03, handshake.length >> 8, handshake.length & 0xff]), handshake]));
    });
  });
  return listening(server);
}

describe('raw ClientHello probes for suites OpenSSL no longer implements', () => {
  const options = { allowPrivateTargets: true, timeoutMs: 2_000, signal: new AbortController().signal };

  it.each([
    ['RC4', RC4_SUITES, 0x0005],
    ['3DES', TRIPLE_DES_SUITES, 0x000a],
    ['EXPORT', EXPORT_SUITES, 0x0003],
  ])('sees a server that picks %s, and one that refuses it', async (_name, group, suite) => {
    const old = await legacyResponder([suite, 0x002f]);
    const modern = await legacyResponder([0xc02f]);
    expect(await serverAccepts('127.0.0.1', old.port, group, options)).toBe(true);
    expect(await serverAccepts('127.0.0.1', modern.port, group, options)).toBe(false);
    expect(await serverAccepts('127.0.0.1', modern.port, FORWARD_SECRET_SUITES, options)).toBe(true);
  });

  it('treats silence and a closed port as not accepted, within the timeout', async () => {
    const silent = await listening(net.createServer(() => {}));
    const began = Date.now();
    expect(await serverAccepts('127.0.0.1', silent.port, RC4_SUITES, { ...options, timeoutMs: 300 })).toBe(false);
    expect(Date.now() - began).toBeLessThan(2_000);
    expect(await serverAccepts('127.0.0.1', 1, RC4_SUITES, options)).toBe(false);
  });
});
