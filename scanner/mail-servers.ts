import type net from 'node:net';
import type { AddressPolicy } from './net/address-policy.ts';
import { closeSmtp, openSmtp, SmtpNotTestable, startTls, type SmtpOptions } from './net/smtp-client.ts';
import { probeTls } from './net/tls-client.ts';
import { refusalIn } from './errors.ts';
import type { FindingType } from './catalog/index.ts';
import { daneMatches, type TlsaRecord } from './probes/internetnl.ts';
import type { MxHost } from './probes/mail-dns.ts';
import { NOTHING_PROBED } from './run-tests.ts';
import { tlsFindingTypes } from './tests/tls.ts';
import type { MailRun, ScanEvidence, SmtpAddressResult, SmtpHostResult, TlsEvidence } from './types.ts';

// The opt-in SMTP part of the mail test (SCANNER_SMTP): per MX address, one connection at a time,
// the greeting, EHLO, STARTTLS and then the TLS test's own checks over the STARTTLS connection.
// What could not be tested (a 421, a time-out, no EHLO answer) says why and is never "no STARTTLS".

export interface SmtpSettings extends AddressPolicy {
  helo: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Port 25; a test may name another. */
  port?: number;
  /** The clock the results are dated by. */
  now: () => Date;
}

/** The TLS test's checks over a handshake's evidence alone (they read nothing else of a scan). */
function judgeTls(tls: TlsEvidence, scannedAt: Date): FindingType[] {
  const evidence: ScanEvidence = {
    target: `smtp://${tls.host}`,
    scannedAt,
    page: null,
    https: null,
    httpRedirects: [],
    tls,
    ...NOTHING_PROBED,
  };
  return [...new Set(tlsFindingTypes(evidence, tls))];
}

/** "usage selector matching hex" back into a record; DANE for SMTP uses usages 2 and 3 only (RFC 7672 section 3.1.3). */
function smtpTlsaRecords(shown: readonly string[]): TlsaRecord[] {
  return shown.flatMap((line) => {
    const [usage, selector, matchingType, hex] = line.split(' ');
    const record = {
      usage: Number(usage),
      selector: Number(selector),
      matchingType: Number(matchingType),
      certificate: Buffer.from(hex ?? '', 'hex'),
    };
    return record.usage === 2 || record.usage === 3 ? [record] : [];
  });
}

/** One connection at a time to an address: each waits for the one before it to close. */
function oneAtATime() {
  let last: Promise<void> = Promise.resolve();
  return (open: () => Promise<net.Socket>) => async (): Promise<net.Socket> => {
    const before = last;
    let release = () => {};
    last = new Promise<void>((done) => {
      release = done;
    });
    await before;
    try {
      const socket = await open();
      socket.once('close', release);
      return socket;
    } catch (error) {
      release();
      throw error;
    }
  };
}

async function testAddress(mx: MxHost, address: string, settings: SmtpSettings): Promise<SmtpAddressResult> {
  const options: SmtpOptions = { ...settings };
  const base = { address, failing: [], dane: null, zeroRtt: null };
  let offers: boolean;
  try {
    const session = await openSmtp(mx.host, address, options);
    offers = session.offersStartTls;
    closeSmtp(session);
  } catch (error) {
    // An address the policy refuses (private, loopback, metadata) is never contacted: not tested, with why.
    const refusal = refusalIn(error);
    return {
      ...base,
      state: 'not_tested',
      reason: refusal ? refusal.message : error instanceof SmtpNotTestable ? error.message : 'niet bereikbaar',
    };
  }
  if (!offers) return { ...base, state: 'no_starttls', reason: 'de server biedt geen STARTTLS aan na EHLO' };
  const queue = oneAtATime();
  const open = queue(async () => startTls(await openSmtp(mx.host, address, options)));
  const probed = await probeTls(mx.host, settings.port ?? 25, {
    ...settings,
    pinnedAddress: address,
    open,
  }).catch(() => null);
  const tls = probed?.tls;
  // Handshakes cut off by the job's time limit say nothing about the server: not judged.
  if (settings.signal.aborted)
    return { ...base, state: 'not_tested', reason: 'de SMTP-test had geen tijd meer voor dit adres' };
  if (!tls || !Object.values(tls.protocols).some(Boolean))
    // STARTTLS was offered; a handshake that never completes is not "no STARTTLS" but untestable.
    return { ...base, state: 'not_tested', reason: 'STARTTLS aangeboden, maar geen TLS-handshake gelukt' };
  const records = mx.tlsa.secure && !mx.tlsa.bogus ? smtpTlsaRecords(mx.tlsa.records) : [];
  return {
    address,
    state: 'starttls',
    reason: null,
    failing: judgeTls(tls, settings.now()),
    dane: records.length > 0 ? daneMatches(records, tls.certificate?.presented ?? [], false) : null,
    zeroRtt: tls.features?.earlyData ?? null,
  };
}

/** Every address of one MX host, one after the other. */
export async function testMailServer(mx: MxHost, settings: SmtpSettings): Promise<SmtpHostResult> {
  const addresses: SmtpAddressResult[] = [];
  for (const address of mx.addresses) addresses.push(await testAddress(mx, address, settings));
  return { host: mx.host, testedAt: settings.now().toISOString(), addresses };
}

/**
 * Whether outbound port 25 works: the probe host must greet with 220. A reason when it does not;
 * null when it does.
 */
async function smtpEgressProblem(probeHost: string, settings: SmtpSettings): Promise<string | null> {
  try {
    // The self-test host is the operator's setting, not a site's: its addresses are looked up normally.
    const session = await openSmtp(probeHost, '', { ...settings, pinnedAddress: undefined });
    closeSmtp(session);
    return null;
  } catch (error) {
    const reason = error instanceof SmtpNotTestable ? error.message : 'geen verbinding';
    return `uitgaand verkeer naar poort 25 werkt niet (zelftest met ${probeHost}: ${reason})`;
  }
}

/** An egress self-test's answer is kept this long: every scan would otherwise ask again. */
const EGRESS_TEST_MS = 5 * 60_000;
const egressTests = new Map<string, { at: number; problem: Promise<string | null> }>();

function egressProblem(probeHost: string, settings: SmtpSettings): Promise<string | null> {
  const now = settings.now().getTime();
  const kept = egressTests.get(probeHost);
  if (kept && now - kept.at < EGRESS_TEST_MS) return kept.problem;
  const problem = smtpEgressProblem(probeHost, settings);
  egressTests.set(probeHost, { at: now, problem });
  return problem;
}

/** Where MX results are kept between scans (shared by every tenant); `fresh` answers results within the TTL only. */
export interface SmtpCache {
  fresh(host: string): Promise<SmtpHostResult | null>;
  keep(result: SmtpHostResult): Promise<void>;
}

/**
 * The SMTP part of a stored mail test: each MX host from the cache when it holds a fresh result,
 * else tested now (after the egress self-test, when a probe host is set). A host none of whose
 * addresses could be tested is not cached: a rate limit must not stand for a day.
 */
export async function completeSmtpPart(
  run: MailRun,
  settings: SmtpSettings & { probeHost?: string },
  cache: SmtpCache,
): Promise<MailRun> {
  if (run.smtp.state !== 'pending' || !run.evidence) return run;
  const hosts: SmtpHostResult[] = [];
  let connected = false;
  let checked = false;
  for (const mx of run.evidence.mx) {
    const cached = await cache.fresh(mx.host);
    if (cached) {
      hosts.push(cached);
      continue;
    }
    if (!checked && settings.probeHost) {
      checked = true;
      const problem = await egressProblem(settings.probeHost, settings);
      // Nothing connects to any MX when egress does not work: untestable, never failed.
      if (problem) return { ...run, smtp: { state: 'not_tested', reason: problem, hosts: [] } };
    }
    connected = true;
    const result = await testMailServer(mx, settings);
    if (result.addresses.some((a) => a.state !== 'not_tested')) await cache.keep(result);
    hosts.push(result);
  }
  return { ...run, smtp: { state: connected ? 'tested' : 'cached', reason: null, hosts } };
}
