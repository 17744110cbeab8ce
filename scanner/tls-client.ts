import net from 'node:net';
import tls from 'node:tls';
import { assertLiteralHostAllowed, bareHost, guardedLookup, type AddressPolicy } from './address-policy.ts';
import { chainFacts, describeName, isSelfIssued } from './certificate-facts.ts';
import { AEAD_SUITES, FORWARD_SECRET_SUITES, WEAK_SUITE_GROUPS, type WeakSuiteGroup } from './cipher-suites.ts';
import { serverAccepts } from './client-hello.ts';
import { refusalIn } from './errors.ts';
import { nextTurn } from './turns.ts';
import type { CertificateEvidence, CipherEvidence, TlsEvidence, TlsVersion } from './types.ts';

export const TLS_VERSIONS: TlsVersion[] = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'];

interface Handshake {
  protocol: string | null;
  certificate: tls.DetailedPeerCertificate;
  authorizationError: string | null;
}

export interface TlsProbeOptions extends AddressPolicy {
  timeoutMs: number;
  signal: AbortSignal;
}

const contexts = new Map<TlsVersion, tls.SecureContext>();

/**
 * One secure context per protocol version, built once: building one loads the trust store, and
 * twenty scans with four handshakes each would otherwise block the event loop while they are built.
 */
function contextFor(version: TlsVersion): tls.SecureContext {
  let context = contexts.get(version);
  if (!context) {
    // OpenSSL refuses TLS 1.0/1.1 and small keys at its default security level, so lower it to see them.
    context = tls.createSecureContext({ minVersion: version, maxVersion: version, ciphers: 'DEFAULT@SECLEVEL=0' });
    contexts.set(version, context);
  }
  return context;
}

/** One handshake limited to a single protocol version; null when the server refuses it. */
async function handshake(host: string, port: number, version: TlsVersion, options: TlsProbeOptions): Promise<Handshake | null> {
  await nextTurn();
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) return resolve(null);
    let settled = false;
    const socket = tls.connect({
      host,
      port,
      servername: net.isIP(host) ? undefined : host,
      lookup: guardedLookup(options),
      secureContext: contextFor(version),
      rejectUnauthorized: false,
    });
    const done = (result: () => Handshake | null, error?: unknown) => {
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
    socket.on('secureConnect', () =>
      done(() => ({
        protocol: socket.getProtocol(),
        certificate: socket.getPeerCertificate(true),
        authorizationError: chainErrorOf(socket.authorizationError),
      })),
    );
    socket.on('error', (error) => done(() => null, error));
    socket.on('close', () => done(() => null));
  });
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
  };
}

/**
 * Offers each weak suite group, and (unless TLS 1.3 already guarantees both) only forward-secret or
 * only AEAD suites, each in its own ClientHello.
 */
async function probeCiphers(host: string, port: number, tls13: boolean, options: TlsProbeOptions): Promise<CipherEvidence> {
  const groups = Object.keys(WEAK_SUITE_GROUPS) as WeakSuiteGroup[];
  const offer = (suites: readonly number[]) => serverAccepts(host, port, suites, options);
  const [weakAccepted, forwardSecrecy, aead] = await Promise.all([
    Promise.all(groups.map((group) => offer(WEAK_SUITE_GROUPS[group]))),
    tls13 ? true : offer(FORWARD_SECRET_SUITES),
    tls13 ? true : offer(AEAD_SUITES),
  ]);
  return { weak: groups.filter((_, i) => weakAccepted[i]), forwardSecrecy, aead };
}

/** Probes each protocol version with its own handshake, reads the certificate of the best one and probes the suites. */
export async function probeTls(hostname: string, port: number, options: TlsProbeOptions): Promise<TlsEvidence> {
  const host = bareHost(hostname);
  assertLiteralHostAllowed(host, options);
  const shakes = await Promise.all(TLS_VERSIONS.map((version) => handshake(host, port, version, options)));
  const protocols = Object.fromEntries(TLS_VERSIONS.map((v, i) => [v, shakes[i] !== null])) as Record<TlsVersion, boolean>;
  const best = [...shakes].reverse().find((s): s is Handshake => s !== null && Object.keys(s.certificate).length > 0);
  const anyAccepted = Object.values(protocols).some(Boolean);
  const ciphers = anyAccepted ? await probeCiphers(host, port, protocols['TLSv1.3'], options) : null;
  return { host, port, protocols, certificate: best ? certificateEvidence(host, best) : null, ciphers };
}
