import { tlsCoverage } from '../scanner/tests/tls.ts';
import { evidence } from './support/evidence.ts';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type tls from 'node:tls';
import { afterAll, describe, expect, it } from 'vitest';
import { renegotiationWaitMs } from '../scanner/net/tls-client.ts';
import { certificate, HARDENED_TLS } from './support/fixture-sites.ts';
import { offer, type OfferOptions } from '../scanner/net/client-hello.ts';
import { scanSite } from '../scanner/index.ts';
import { ncscVerdict } from '../scanner/report/scoring.ts';
import { SUITES, TLS12_SUITES_WORST_FIRST, type InsufficientSuiteReason } from '../scanner/rules/tls-guideline.ts';
import { probeSuites } from '../scanner/net/tls-suites.ts';
import type { FixtureSite } from './support/fixture-sites.ts';
import {
  HANDSHAKE_FAILURE,
  legacyResponder,
  serverHello,
  startResponder,
  type Responder,
} from './support/tls-responder.ts';
import { startTlsSite, TLS_CASES } from './support/tls-sites.ts';

const sites: Array<{ close: () => Promise<void> }> = [];
/** Whether the server picks one of `suites` when offered only those. */
const serverAccepts = async (host: string, port: number, suites: readonly number[], options: OfferOptions) => {
  const choice = await offer(host, port, { suites }, options);
  return choice !== null && suites.includes(choice.suite);
};
const codesWith = (reason: InsufficientSuiteReason) =>
  [...SUITES.values()].filter((s) => s.reason === reason).map((s) => s.code);
const RC4_SUITES = codesWith('rc4');
const TRIPLE_DES_SUITES = codesWith('triple_des');
const EXPORT_SUITES = codesWith('export');
const FORWARD_SECRET_SUITES = [...SUITES.values()].filter((s) => s.forwardSecret && !s.tls13).map((s) => s.code);

afterAll(async () => Promise.all(sites.map((site) => site.close())));

const keep = async <T extends { close: () => Promise<void> }>(started: Promise<T>): Promise<T> => {
  const site = await started;
  sites.push(site);
  return site;
};
const scanTls = async (name: string) => {
  const site: FixtureSite = await keep(startTlsSite(TLS_CASES.find((c) => c.name === name)!));
  return scanSite(site.url, { allowPrivateTargets: true, probeExposures: false });
};
const actual = (result: Awaited<ReturnType<typeof scanSite>>, type: string) =>
  result.findings.find((f) => f.finding_type === type)?.actual_value;

describe('client-initiated renegotiation', () => {
  it('is refused without waiting out the time-out when the server ignores the request', {
    timeout: 15_000,
  }, async () => {
    // Node's disableRenegotiation() drops the request: the client hears nothing back.
    const cert = certificate();
    const server = https.createServer(
      { key: cert.keyPem, cert: cert.certPem, ...HARDENED_TLS, secureOptions: 0 },
      (_req, res) => res.end('ok'),
    );
    server.on('secureConnection', (socket: tls.TLSSocket) => socket.disableRenegotiation());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    sites.push({
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    });
    const { port } = server.address() as AddressInfo;
    // A request bound of a minute: a probe that waited it out would fail this test by its time-out.
    const result = await scanSite(`https://127.0.0.1:${port}/`, {
      allowPrivateTargets: true,
      probeExposures: false,
      requestTimeoutMs: 60_000,
    });
    expect(result.findings.map((f) => f.finding_type)).not.toContain('tls_client_renegotiation_allowed');
  });

  it('waits for a renegotiation a few handshake times, at least a second', () => {
    expect([renegotiationWaitMs(5), renegotiationWaitMs(400)]).toEqual([1_000, 1_600]);
  });
});

describe('TLS checks at testssl.sh depth and the NCSC-NL guideline, against real TLS servers', () => {
  it.each(TLS_CASES)('$name', async (tlsCase) => {
    const result = await scanTls(tlsCase.name);
    const serious = result.findings.filter((f) => f.severity !== 'LOW').map((f) => f.finding_type);
    expect(serious.sort()).toEqual([...tlsCase.expected].sort());
    expect(ncscVerdict(result.findings)).toBe(tlsCase.ncsc);
    // The grade rule: an Onvoldoende element keeps a site from uitstekend.
    if (tlsCase.ncsc === 'Onvoldoende') expect(result.grade).not.toBe('uitstekend');
  });

  it('names what the server did in actual_value', async () => {
    expect(actual(await scanTls('DHE-RSA-AES-GCM only, 1024-bit DH group'), 'tls_dh_group_insufficient')).toBe(
      'DHE 1024 bits (RFC 2409 groep 2, geen RFC 7919-groep)',
    );
    expect(actual(await scanTls("OpenSSL's automatic DH group beside ECDHE"), 'tls_dh_group_insufficient')).toBe(
      'DHE 2048 bits (RFC 3526 groep 14, geen RFC 7919-groep)',
    );
    expect(actual(await scanTls('ffdhe2048 beside ECDHE'), 'tls_dh_group_insufficient')).toBe(
      'DHE 2048 bits (ffdhe2048)',
    );
    expect(actual(await scanTls('ffdhe3072 only'), 'tls_dh_group_phase_out')).toBe('DHE 3072 bits (ffdhe3072)');
    expect(
      actual(
        await scanTls('no server cipher order (ECDHE-GCM, ECDHE-CBC-SHA, static-RSA CBC)'),
        'tls_cipher_static_rsa',
      ),
    ).toBe('TLS_RSA_WITH_AES_128_CBC_SHA geaccepteerd');
    expect(actual(await scanTls('static RSA preferred over ECDHE'), 'tls_cipher_order_weak_first')).toBe(
      'TLS_RSA_WITH_AES_128_GCM_SHA256 (Onvoldoende) verkozen boven TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 (Voldoende)',
    );
    expect(
      actual(await scanTls('curve outside the guideline (secp256k1 beside X25519)'), 'tls_curve_insufficient'),
    ).toBe('ECDHE secp256k1');
    expect(actual(await scanTls('secp224r1 beside P-256'), 'tls_curve_phase_out')).toBe('ECDHE secp224r1');
    expect(actual(await scanTls('TLS 1.3 CCM_8 offered'), 'tls_cipher_ccm8')).toBe(
      'TLS_AES_128_CCM_8_SHA256 (TLS 1.3) geaccepteerd',
    );
    expect(
      actual(await scanTls('client-initiated renegotiation accepted'), 'tls_client_renegotiation_allowed'),
    ).toBeTruthy();
    expect(
      actual(await scanTls('modern TLS 1.2/1.3, ECDHE with AEAD'), 'tls_client_renegotiation_allowed'),
    ).toBeUndefined();
  });

  it('counts every ClientHello and handshake in requests_made', async () => {
    const result = await scanTls('modern TLS 1.2/1.3, ECDHE with AEAD');
    // 4 version handshakes, 3 accepted suites + 1 refusal, 1 order, 4 weak-curve/hash hellos, renegotiation, CCM_8.
    expect(result.requests_made).toBeGreaterThanOrEqual(4 + 4 + 1 + 4 + 2);
  });
});

describe('ServerHello facts from raw probes (servers OpenSSL 3 cannot be)', () => {
  const options = { allowPrivateTargets: true, timeoutMs: 2_000, signal: new AbortController().signal };

  it.each([
    [
      'without secure renegotiation',
      { extensions: [0x0017] },
      { secureRenegotiation: false, extendedMasterSecret: true, compression: false },
    ],
    [
      'without Extended Master Secret',
      { extensions: [0xff01] },
      { secureRenegotiation: true, extendedMasterSecret: false, compression: false },
    ],
    [
      'with DEFLATE compression',
      { extensions: [0xff01, 0x0017], compression: 1 },
      { secureRenegotiation: true, extendedMasterSecret: true, compression: true },
    ],
  ])('reads a server %s', async (_name, answer, expected) => {
    const server = await keep(legacyResponder([0xc02f, 0x009c], answer));
    const probed = await probeSuites('127.0.0.1', server.port, options);
    expect(probed.hello).toEqual(expected);
    expect(probed.ciphers.accepted.map((s) => s.code).sort()).toEqual([0x009c, 0xc02f]);
    // A client-order server: the worst suite first, and the reversed offer is followed.
    expect(probed.ciphers.serverOrder).toBe(false);
  });

  it('enumerates every accepted suite, within the bound', async () => {
    const supported = TLS12_SUITES_WORST_FIRST.slice(0, 60);
    const server = await keep(legacyResponder(supported, { extensions: [0xff01, 0x0017] }));
    const probed = await probeSuites('127.0.0.1', server.port, options);
    expect(probed.ciphers.accepted).toHaveLength(48);
    expect(probed.ciphers.truncated).toBe(true);
  });
});

describe('hostile TLS answers end a probe, never the process', () => {
  const options = { allowPrivateTargets: true, timeoutMs: 1_000, signal: new AbortController().signal };
  const hello = (suite: number) => serverHello(suite);
  const answers: Array<[string, (suites: number[]) => Buffer | Buffer[] | null, boolean]> = [
    ['plain HTTP instead of TLS', () => Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n'), false],
    ['random bytes', () => Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 37) % 256)), false],
    [
      'a record announcing 64 KiB and sending 10 bytes',
      () => Buffer.from([0x16, 0x03, 0x03, 0xff, 0xff, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
      false,
    ],
    ['a ServerHello cut short', (suites) => hello(suites[0]!).subarray(0, 30), false],
    [
      'a ServerHello with an impossible session id length',
      (suites) => Buffer.from(hello(suites[0]!).fill(0xff, 43, 44)),
      false,
    ],
    ['an alert', () => HANDSHAKE_FAILURE, false],
    ['silence', () => null, false],
    [
      'endless handshake records after the ServerHello',
      (suites) => [
        hello(suites[0]!).subarray(0, hello(suites[0]!).length - 4),
        ...Array.from({ length: 200 }, () =>
          Buffer.concat([Buffer.from([0x16, 0x03, 0x03, 0x04, 0x00]), Buffer.alloc(1024, 0x0b)]),
        ),
      ],
      true,
    ],
    [
      'a ServerKeyExchange with lengths past its end',
      (suites) => {
        const sh = hello(0xc02f).subarray(0, hello(0xc02f).length - 4);
        const ske = Buffer.from([0x16, 0x03, 0x03, 0x00, 0x08, 0x0c, 0x00, 0x00, 0x04, 0x03, 0x00, 0x17, 0xff]);
        return suites.includes(0xc02f) ? [sh, ske] : HANDSHAKE_FAILURE;
      },
      true,
    ],
  ];

  it.each(answers)('%s', async (_name, answer, accepted) => {
    const server: Responder = await keep(startResponder(answer));
    const began = Date.now();
    const choice = await offer('127.0.0.1', server.port, { suites: [0xc02f, 0x009c] }, options);
    expect(choice !== null).toBe(accepted);
    expect(Date.now() - began).toBeLessThan(1_500);
    const probed = await probeSuites('127.0.0.1', server.port, options);
    expect(probed.probes).toBeLessThan(60);
  });
});

describe('raw ClientHello probes for suites OpenSSL no longer implements', () => {
  const options = { allowPrivateTargets: true, timeoutMs: 2_000, signal: new AbortController().signal };

  it.each([
    ['RC4', RC4_SUITES, 0x0005],
    ['3DES', TRIPLE_DES_SUITES, 0x000a],
    ['EXPORT', EXPORT_SUITES, 0x0003],
  ])('sees a server that picks %s, and one that refuses it', async (_name, group, suite) => {
    const old = await legacyResponder([suite, 0x002f]);
    const modern = await legacyResponder([0xc02f]);
    sites.push(old, modern);
    expect(await serverAccepts('127.0.0.1', old.port, group, options)).toBe(true);
    expect(await serverAccepts('127.0.0.1', modern.port, group, options)).toBe(false);
    expect(await serverAccepts('127.0.0.1', modern.port, FORWARD_SECRET_SUITES, options)).toBe(true);
  });

  it('treats silence and a closed port as not accepted, within the timeout', async () => {
    const silent = await keep(startResponder(() => null));
    const began = Date.now();
    expect(await serverAccepts('127.0.0.1', silent.port, RC4_SUITES, { ...options, timeoutMs: 300 })).toBe(false);
    expect(Date.now() - began).toBeLessThan(2_000);
    expect(await serverAccepts('127.0.0.1', 1, RC4_SUITES, options)).toBe(false);
  });
});

describe('a suite the runtime cannot offer', () => {
  it('is reported as not tested, never as absent: the TLS findings of the origin stay as they are', () => {
    const tested = evidence();
    const untested = evidence();
    untested.tls!.ciphers!.tls13InsufficientSuite = null;
    const site = { tlsWorks: true, tlsCut: false, httpsUrl: new URL('https://example.nl/') };
    expect(tlsCoverage(tested, site, 'https://example.nl')).toEqual([
      { subject: 'https://example.nl', status: 'completed', reason: null },
    ]);
    expect(tlsCoverage(untested, site, 'https://example.nl')).toEqual([
      {
        subject: 'https://example.nl',
        status: 'skipped',
        reason: 'deze Node.js-versie kan TLS_AES_128_CCM_8_SHA256 niet aanbieden: CCM_8 niet getest',
      },
    ]);
  });
});
