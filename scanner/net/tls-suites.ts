import {
  EXTENSION,
  offer,
  type HelloOffer,
  type KeyExchangeFacts,
  type OfferOptions,
  type ServerChoice,
} from './client-hello.ts';
import {
  groupsOfClass,
  SIGNATURE_SCHEMES_BY_HASH,
  suiteFacts,
  TLS12_SUITES_WORST_FIRST,
} from '../rules/tls-guideline.ts';
import type { CipherEvidence, TlsFeatureEvidence } from '../types.ts';

/** Suites enumerated at most: a server accepting more is judged on these (no server offers this many good ones). */
export const MAX_ENUMERATED_SUITES = 48;
/** Time budget of all raw ClientHellos of one scan, apart from the scan's own deadline. */
export const SUITE_PROBE_BUDGET_MS = 20_000;

export interface SuiteProbeResult {
  ciphers: CipherEvidence;
  /** ClientHellos sent. */
  probes: number;
  /** Facts of the TLS 1.2 ServerHello; null when no TLS 1.2-and-earlier hello was answered. */
  hello: Pick<TlsFeatureEvidence, 'secureRenegotiation' | 'extendedMasterSecret' | 'compression'> | null;
}

/**
 * Enumerates the TLS 1.2-and-earlier suites a server accepts the way testssl.sh does: offer all,
 * note the pick, offer the rest, until it refuses. The offer lists the worst suites first, so a
 * server without an order of its own picks the worst; one more hello with the accepted suites
 * reversed tells whether the server follows the client (no order) or its own list (then the picks
 * are its preference order). Then the curves and key-exchange hashes the guideline refuses are
 * offered alone.
 */
export async function probeSuites(host: string, port: number, options: OfferOptions): Promise<SuiteProbeResult> {
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(SUITE_PROBE_BUDGET_MS)]);
  let probes = 0;
  const probe = (hello: HelloOffer) => {
    probes += 1;
    return offer(host, port, hello, { ...options, signal });
  };
  const accepted: ServerChoice[] = [];
  let remaining = [...TLS12_SUITES_WORST_FIRST];
  let truncated = false;
  for (;;) {
    if (accepted.length >= MAX_ENUMERATED_SUITES) {
      truncated = true;
      break;
    }
    const choice = await probe({ suites: remaining });
    if (!choice || !remaining.includes(choice.suite)) break;
    accepted.push(choice);
    remaining = remaining.filter((code) => code !== choice.suite);
  }
  if (signal.aborted) truncated = true;
  const codes = accepted.map((choice) => choice.suite);
  const ecdhe = codes.filter((code) => suiteFacts(code).keyExchange === 'ecdhe' && suiteFacts(code).forwardSecret);
  const signed = codes.filter((code) => suiteFacts(code).keyExchange !== null && suiteFacts(code).forwardSecret);
  const groupPicked = async (groups: number[]) => {
    if (!ecdhe.length) return null;
    const choice = await probe({ suites: ecdhe, groups });
    return choice?.keyExchange?.kind === 'ecdhe' ? choice.keyExchange.group : null;
  };
  const schemeUsed = async (schemes: readonly number[]) => {
    if (!signed.length) return null;
    const scheme = (await probe({ suites: signed, signatureSchemes: schemes }))?.keyExchange?.signatureScheme ?? null;
    return scheme !== null && schemes.includes(scheme) ? scheme : null;
  };
  const [reversed, insufficientGroup, phaseOutGroup, insufficientScheme, phaseOutScheme] = await Promise.all([
    codes.length >= 2 ? probe({ suites: [...codes].reverse() }) : null,
    groupPicked(groupsOfClass('Onvoldoende')),
    groupPicked(groupsOfClass('Uit te faseren')),
    schemeUsed(SIGNATURE_SCHEMES_BY_HASH.insufficient),
    schemeUsed(SIGNATURE_SCHEMES_BY_HASH.phaseOut),
  ]);
  // Following the client means picking the first of the reversed list, the last enumerated suite.
  const serverOrder = codes.length < 2 || !reversed ? null : reversed.suite !== codes[codes.length - 1];
  const tls12 = accepted.find((choice) => choice.version === 0x0303);
  const first = accepted[0];
  return {
    probes,
    ciphers: {
      accepted: accepted.map((choice) => ({ code: choice.suite, keyExchange: keyExchangeOf(choice.keyExchange) })),
      serverOrder,
      truncated,
      weakGroups: [insufficientGroup, phaseOutGroup].filter((g): g is number => g !== null),
      weakKeyExchangeSchemes: [insufficientScheme, phaseOutScheme].filter((s): s is number => s !== null),
      tls13InsufficientSuite: false,
    },
    hello: first
      ? {
          secureRenegotiation: first.extensions.includes(EXTENSION.renegotiationInfo),
          extendedMasterSecret: tls12 ? tls12.extensions.includes(EXTENSION.extendedMasterSecret) : null,
          compression: accepted.some((choice) => choice.compression !== 0),
        }
      : null,
  };
}

/** Evidence keeps the DH prime as hex (it is compared with the RFC 7919 primes), not a Buffer. */
function keyExchangeOf(facts: KeyExchangeFacts | null): CipherEvidence['accepted'][number]['keyExchange'] {
  if (!facts) return null;
  if (facts.kind === 'ecdhe') return facts;
  return {
    kind: 'dhe',
    prime: facts.prime.toString('hex'),
    generator: facts.generator.toString('hex'),
    signatureScheme: facts.signatureScheme,
  };
}
