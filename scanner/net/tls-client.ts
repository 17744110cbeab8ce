import net from 'node:net';
import tls from 'node:tls';
import { assertLiteralHostAllowed, bareHost, guardedLookup, type AddressPolicy } from './address-policy.ts';
import { chainFacts, describeName, isSelfIssued, presentedChain } from './certificate-facts.ts';
import { maxEarlyData } from './tls-session.ts';
import { refusalIn } from '../errors.ts';
import { TLS13_INSUFFICIENT_SUITE } from '../rules/tls-guideline.ts';
import { probeSuites } from './tls-suites.ts';
import { plainSocket } from './client-hello.ts';
import { nextTurn } from '../turns.ts';
import type { CertificateEvidence, TlsEvidence, TlsVersion } from '../types.ts';

export const TLS_VERSIONS: TlsVersion[] = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'];

interface Handshake {
  protocol: string | null;
  certificate: tls.DetailedPeerCertificate;
  authorizationError: string | null;
}

export interface TlsProbeOptions extends AddressPolicy {
  timeoutMs: number;
  signal: AbortSignal;
  /** Opens the plain connection TLS starts on (SMTP's STARTTLS); a direct TLS connection without it. */
  open?: () => Promise<net.Socket>;
}

const contexts = new Map<string, tls.SecureContext>();

/**
 * The key-exchange groups every handshake offers, the same on each runtime: OpenSSL 3.0 (Node 20)
 * and 3.5 (Node 24, 26) have other defaults (3.5 leads with a post-quantum hybrid), and a verdict
 * must not change with the Node a user runs. The classic curves and the RFC 7919 groups the NCSC
 * guideline judges; the raw ClientHello probes name their own.
 */
export const OFFERED_GROUPS = 'X25519:P-256:P-384:P-521:X448:ffdhe2048:ffdhe3072:ffdhe4096';

/**
 * The signature algorithms every handshake accepts, the same on each runtime (OpenSSL 3.5 adds
 * ML-DSA and orders its defaults otherwise): everything a server may still sign with, SHA-1 and DSA
 * included, so a weak server is reached and judged rather than refused.
 */
export const OFFERED_SIGNATURE_ALGORITHMS = [
  'ecdsa_secp256r1_sha256',
  'ecdsa_secp384r1_sha384',
  'ecdsa_secp521r1_sha512',
  'ed25519',
  'ed448',
  'rsa_pss_pss_sha256',
  'rsa_pss_pss_sha384',
  'rsa_pss_pss_sha512',
  'rsa_pss_rsae_sha256',
  'rsa_pss_rsae_sha384',
  'rsa_pss_rsae_sha512',
  'rsa_pkcs1_sha256',
  'rsa_pkcs1_sha384',
  'rsa_pkcs1_sha512',
  'ECDSA+SHA224',
  'RSA+SHA224',
  'ECDSA+SHA1',
  'RSA+SHA1',
  'DSA+SHA256',
  'DSA+SHA1',
].join(':');

/**
 * Secure contexts built once: building one loads the trust store, and twenty scans with several
 * handshakes each would otherwise block the event loop while they are built.
 */
function contextFor(min: TlsVersion, max: TlsVersion = min, ciphers = 'DEFAULT@SECLEVEL=0'): tls.SecureContext {
  const key = `${min} ${max} ${ciphers}`;
  let context = contexts.get(key);
  if (!context) {
    // OpenSSL refuses TLS 1.0/1.1 and small keys at its default security level, so lower it to see them.
    context = tls.createSecureContext({
      minVersion: min,
      maxVersion: max,
      ciphers,
      ecdhCurve: OFFERED_GROUPS,
      sigalgs: OFFERED_SIGNATURE_ALGORITHMS,
    });
    contexts.set(key, context);
  }
  return context;
}

/**
 * Connects with `context` and settles with what `onSecure` makes of the connection, or null on
 * refusal, a timeout or an abort. Every socket event ends in exactly one settlement.
 */
async function connectTls<T>(
  host: string,
  port: number,
  context: tls.SecureContext,
  options: TlsProbeOptions,
  onSecure: (socket: tls.TLSSocket, settle: (result: () => T | null) => void) => void,
): Promise<T | null> {
  await nextTurn();
  const plain = await plainSocket(options);
  if (plain === null) return null;
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) {
      if (plain !== 'direct') plain.destroy();
      return resolve(null);
    }
    let settled = false;
    const socket = tls.connect({
      ...(plain === 'direct' ? { host, port, lookup: guardedLookup(options) } : { socket: plain }),
      servername: net.isIP(host) ? undefined : host,
      secureContext: context,
      rejectUnauthorized: false,
    });
    const done = (result: () => T | null, error?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', abort);
      const refusal = error ? refusalIn(error) : null;
      try {
        if (refusal) reject(refusal);
        else resolve(result());
      } catch {
        resolve(null);
      } finally {
        socket.destroy();
      }
    };
    const abort = () => done(() => null);
    const timer = setTimeout(abort, options.timeoutMs);
    options.signal.addEventListener('abort', abort);
    socket.on('secureConnect', () => {
      try {
        onSecure(socket, (result) => done(result));
      } catch {
        done(() => null);
      }
    });
    socket.on('error', (error) => done(() => null, error));
    socket.on('close', () => done(() => null));
  });
}

/** One handshake limited to a single protocol version; null when the server refuses it. */
function handshake(
  host: string,
  port: number,
  version: TlsVersion,
  options: TlsProbeOptions,
): Promise<Handshake | null> {
  return connectTls(host, port, contextFor(version), options, (socket, settle) =>
    settle(() => ({
      protocol: socket.getProtocol(),
      certificate: socket.getPeerCertificate(true),
      authorizationError: chainErrorOf(socket.authorizationError),
    })),
  );
}

/**
 * Whether a TLS 1.3 server offers 0-RTT: its session ticket allows early data (the data the client
 * sends before the handshake ends can be replayed). A server that sends no ticket within the wait
 * allows none. internet.nl's zero_rtt (sslyze's early-data test) fails a server that accepts it.
 */
function offersEarlyData(host: string, port: number, options: TlsProbeOptions): Promise<boolean | null> {
  const started = Date.now();
  return connectTls(host, port, contextFor('TLSv1.3'), options, (socket, settle) => {
    // OpenSSL servers send their tickets right after the client's Finished: one round trip, which a
    // handshake's time bounds twice over.
    const wait = setTimeout(() => settle(() => false), Math.max(300, 2 * (Date.now() - started)));
    socket.once('session', (session: Buffer) => {
      clearTimeout(wait);
      settle(() => maxEarlyData(session) > 0);
    });
    socket.resume();
  });
}

/**
 * The chain a server presents to one handshake at its best version, leaf first, and whether it
 * validates against the trust store (the host name aside); null when it refuses TLS.
 */
export async function presentedChainAt(
  hostname: string,
  port: number,
  options: TlsProbeOptions,
): Promise<{ chain: Buffer[]; trusted: boolean } | null> {
  const host = bareHost(hostname);
  assertLiteralHostAllowed(host, options);
  return connectTls(host, port, contextFor('TLSv1', 'TLSv1.3'), options, (socket, settle) =>
    settle(() => ({
      chain: presentedChain(socket.getPeerCertificate(true)),
      trusted: chainErrorOf(socket.authorizationError) === null,
    })),
  );
}

/** A renegotiation takes one round trip more than nothing: a server silent for this long has not renegotiated. */
export const renegotiationWaitMs = (handshakeMs: number) => Math.max(1_000, 4 * handshakeMs);

/**
 * Whether the server lets the client renegotiate a TLS 1.2 connection. A refusing server answers
 * with a no_renegotiation alert, which ends the renegotiation with an error; one that ignores the
 * request (OpenSSL's warning alert, or nothing) is refused once a few handshake times have passed.
 */
function clientRenegotiation(host: string, port: number, options: TlsProbeOptions): Promise<boolean | null> {
  const started = Date.now();
  return connectTls(host, port, contextFor('TLSv1', 'TLSv1.2'), options, (socket, settle) => {
    const wait = setTimeout(() => settle(() => false), renegotiationWaitMs(Date.now() - started));
    const asked = socket.renegotiate({ rejectUnauthorized: false }, (error) => {
      clearTimeout(wait);
      settle(() => !error);
    });
    if (!asked) {
      clearTimeout(wait);
      settle(() => false);
    }
  });
}

/**
 * Whether a TLS 1.3 handshake offering only TLS_AES_128_CCM_8_SHA256 succeeds; null when the runtime
 * cannot offer it. OpenSSL 3.5 (Node 24
 * and 26) offers CCM_8 only at security level 0, OpenSSL 3.0 (Node 20) at any: the level is set here,
 * not left to the runtime, so the verdict is the same on each.
 */
async function acceptsTls13Suite(host: string, port: number, options: TlsProbeOptions): Promise<boolean | null> {
  let context: tls.SecureContext;
  try {
    context = contextFor('TLSv1.3', 'TLSv1.3', `DEFAULT@SECLEVEL=0:${TLS13_INSUFFICIENT_SUITE.name}`);
  } catch {
    // A runtime whose TLS library cannot offer the suite at all: not tested, never "not accepted".
    return null;
  }
  return (
    (await connectTls(host, port, context, options, (socket, settle) =>
      settle(() => socket.getCipher().standardName === TLS13_INSUFFICIENT_SUITE.name),
    )) === true
  );
}

/** The chain verification error; a hostname mismatch is judged separately. */
function chainErrorOf(error: Error | undefined): string | null {
  if (!error) return null;
  const code = String((error as NodeJS.ErrnoException).code ?? error);
  return code === 'ERR_TLS_CERT_ALTNAME_INVALID' ? null : code;
}

function certificateEvidence(host: string, shake: Handshake): CertificateEvidence {
  const cert = shake.certificate;
  return {
    subject: [describeName(cert.subject), cert.subjectaltname].filter(Boolean).join('; '),
    issuer: describeName(cert.issuer),
    validFrom: new Date(cert.valid_from).toISOString(),
    validTo: new Date(cert.valid_to).toISOString(),
    chainError: shake.authorizationError,
    hostnameMatches: tls.checkServerIdentity(host, cert) === undefined,
    selfSigned: isSelfIssued(cert),
    hasSubjectAltName: Boolean(cert.subjectaltname),
    chain: chainFacts(cert),
    presented: presentedChain(cert),
  };
}

/**
 * Probes each protocol version with its own handshake, reads the certificate of the best one, then
 * enumerates the suites and tests renegotiation and TLS 1.3 CCM_8. `handshakes` counts every
 * connection made.
 */
export async function probeTls(
  hostname: string,
  port: number,
  options: TlsProbeOptions,
): Promise<{ tls: TlsEvidence; handshakes: number }> {
  const host = bareHost(hostname);
  assertLiteralHostAllowed(host, options);
  const shakes = await Promise.all(TLS_VERSIONS.map((version) => handshake(host, port, version, options)));
  const protocols = Object.fromEntries(TLS_VERSIONS.map((v, i) => [v, shakes[i] !== null])) as Record<
    TlsVersion,
    boolean
  >;
  const best = [...shakes].reverse().find((s): s is Handshake => s !== null && Object.keys(s.certificate).length > 0);
  const anyAccepted = Object.values(protocols).some(Boolean);
  const certificate = best ? certificateEvidence(host, best) : null;
  if (!anyAccepted)
    return {
      tls: { host, port, protocols, certificate, ciphers: null, features: null },
      handshakes: TLS_VERSIONS.length,
    };
  const legacy = protocols.TLSv1 || protocols['TLSv1.1'] || protocols['TLSv1.2'];
  const [suites, renegotiation, ccm8, earlyData] = await Promise.all([
    probeSuites(host, port, options),
    legacy ? clientRenegotiation(host, port, options) : null,
    protocols['TLSv1.3'] ? acceptsTls13Suite(host, port, options) : false,
    protocols['TLSv1.3'] ? offersEarlyData(host, port, options) : false,
  ]);
  return {
    tls: {
      host,
      port,
      protocols,
      certificate,
      ciphers: { ...suites.ciphers, tls13InsufficientSuite: ccm8 },
      features: {
        secureRenegotiation: null,
        extendedMasterSecret: null,
        compression: null,
        ...suites.hello,
        clientRenegotiation: renegotiation,
        earlyData,
      },
    },
    handshakes: TLS_VERSIONS.length + suites.probes + (legacy ? 1 : 0) + (protocols['TLSv1.3'] ? 2 : 0),
  };
}
