import { describe, expect, it } from 'vitest';
import { scanSite } from '../scanner/index.ts';
import { probeTls } from '../scanner/net/tls-client.ts';
import { maxEarlyData } from '../scanner/net/tls-session.ts';
import { realServersAvailable, startNginx } from './support/real-servers.ts';

// 0-RTT as internet.nl's zero_rtt judges it, against nginx as Debian ships it: early data is off by
// default, and `ssl_early_data on` makes its session tickets offer it.
const options = { allowPrivateTargets: true, timeoutMs: 3_000, signal: new AbortController().signal };

describe.runIf(realServersAvailable() || process.env.CI)('0-RTT (TLS 1.3 early data)', () => {
  it('reads early data from nginx only when ssl_early_data is on, and internet.nl fails zero_rtt then', {
    timeout: 60_000,
  }, async () => {
    const server = await startNginx();
    try {
      const { port } = new URL(server.url);
      const before = await probeTls('127.0.0.1', Number(port), options);
      expect(before.tls.protocols['TLSv1.3']).toBe(true);
      expect(before.tls.features?.earlyData).toBe(false);
      await server.reconfigure('ssl_early_data on;');
      const after = await probeTls('127.0.0.1', Number(port), options);
      expect(after.tls.features?.earlyData).toBe(true);
      const scan = await scanSite(server.url, {
        allowPrivateTargets: true,
        probeExposures: false,
        internetnl: { dnssecProbeName: 'lab.test' },
      });
      expect(scan.internetnl!.categories.tls.tests.find((t) => t.name === 'zero_rtt')).toMatchObject({
        status: 'failed',
      });
    } finally {
      await server.close();
    }
  });

  it('reads no early data from a session that cannot be parsed', () => {
    expect(maxEarlyData(Buffer.from([0x30, 0x82, 0xff]))).toBe(0);
    expect(maxEarlyData(Buffer.alloc(0))).toBe(0);
    // SEQUENCE { INTEGER 1, [15] { INTEGER 16384 } }
    const der = Buffer.from([0x30, 0x09, 0x02, 0x01, 0x01, 0xaf, 0x04, 0x02, 0x02, 0x40, 0x00]);
    expect(maxEarlyData(der)).toBe(16_384);
    // As Node 22 and later hand it out: a header of Node's own before the DER.
    const header = Buffer.concat([Buffer.from('\0nodejs:tls:session:1\0\0\x09127.0.0.1', 'latin1')]);
    expect(maxEarlyData(Buffer.concat([header, der]))).toBe(16_384);
    expect(maxEarlyData(Buffer.concat([header, der.subarray(0, 8)]))).toBe(0);
  });
});
