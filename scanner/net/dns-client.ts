import dgram from 'node:dgram';
import { readFileSync } from 'node:fs';
import { isIP, Socket } from 'node:net';
import { randomInt } from 'node:crypto';
import * as packet from 'dns-packet';

// The scanner's one DNS client (dns-packet over UDP, TCP when an answer is truncated): every
// question a scan asks goes to the servers SCANNER_DNS_SERVERS names, or to /etc/resolv.conf's.

export interface DnsServer {
  address: string;
  port: number;
}

/** "ip", "ip:port" or "[ip6]:port" (the form SCANNER_DNS_SERVERS uses). */
export function parseDnsServer(spec: string): DnsServer {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(spec);
  if (bracketed) return { address: bracketed[1]!, port: Number(bracketed[2] ?? 53) };
  if (isIP(spec)) return { address: spec, port: 53 };
  const [address, port] = spec.split(':');
  return { address: address!, port: Number(port ?? 53) };
}

let systemServers: DnsServer[] | null = null;

/** The name servers of /etc/resolv.conf, read once; the loopback resolver when it names none. */
function resolvConfServers(): DnsServer[] {
  if (!systemServers) {
    let text = '';
    try {
      text = readFileSync('/etc/resolv.conf', 'utf8');
    } catch {
      // No resolv.conf (a minimal container): the loopback resolver, as glibc assumes.
    }
    const listed = [...text.matchAll(/^\s*nameserver\s+(\S+)/gm)].map((m) => m[1]!.replace(/%.*$/, ''));
    systemServers = (listed.length > 0 ? listed : ['127.0.0.1']).map((address) => ({ address, port: 53 }));
  }
  return systemServers;
}

export const serversOf = (specs: readonly string[] | undefined): DnsServer[] =>
  specs && specs.length > 0 ? specs.map(parseDnsServer) : resolvConfServers();

export type RecordType = 'A' | 'AAAA' | 'NS' | 'SOA' | 'CAA' | 'TLSA' | 'DS' | 'DNSKEY' | 'MX' | 'TXT';

export interface QueryOptions {
  servers: readonly DnsServer[];
  /** Ask for DNSSEC records and the AD bit (EDNS DO). */
  dnssecOk?: boolean;
  /** Checking Disabled: the resolver answers without validating (tells "bogus" from "broken"). */
  checkingDisabled?: boolean;
  /** Per try; two tries per server. Default 3 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface DnsResponse {
  rcode: string;
  /** Authenticated Data: the validating resolver checked the answer's signatures. */
  authenticated: boolean;
  /** Records of the asked type (a CNAME chain's records are left out), each with its decoded data. */
  answers: Array<{ name: string; data: unknown }>;
  /** RFC 8914 Extended DNS Error, when the resolver gave one. */
  extendedError: { code: number; text: string } | null;
  /** The server that answered. */
  server: DnsServer;
}

export class DnsError extends Error {}

/** RFC 1035 and 2136 response codes by number. */
const RCODES: Record<number, string> = {
  0: 'NOERROR',
  1: 'FORMERR',
  2: 'SERVFAIL',
  3: 'NXDOMAIN',
  4: 'NOTIMP',
  5: 'REFUSED',
};

/** RFC 8914: EDNS option 15, an INFO-CODE and optional UTF-8 text. */
function extendedErrorOf(response: packet.Packet): DnsResponse['extendedError'] {
  for (const record of response.additionals ?? []) {
    if (record.type !== 'OPT') continue;
    for (const option of (record as packet.OptAnswer).options ?? []) {
      const raw = option as { code: number | string; data?: Buffer };
      if ((raw.code === 15 || raw.code === 'EDE' || raw.code === 'OPTION_15') && raw.data && raw.data.length >= 2)
        return { code: raw.data.readUInt16BE(0), text: raw.data.subarray(2).toString('utf8').slice(0, 200) };
    }
  }
  return null;
}

function questionOf(name: string, type: RecordType, options: QueryOptions): { id: number; wire: Buffer } {
  const id = randomInt(0, 0x10000);
  const wire = packet.encode({
    type: 'query',
    id,
    flags: packet.RECURSION_DESIRED | (options.checkingDisabled ? packet.CHECKING_DISABLED : 0),
    questions: [{ type, name }],
    additionals: [
      {
        type: 'OPT',
        name: '.',
        udpPayloadSize: 1232,
        extendedRcode: 0,
        ednsVersion: 0,
        flags: options.dnssecOk ? packet.DNSSEC_OK : 0,
        flag_do: Boolean(options.dnssecOk),
        options: [],
      },
    ],
  });
  return { id, wire };
}

/** The answer is to this question: same id, and the same name and type echoed back. */
function matches(response: packet.Packet, id: number, name: string, type: RecordType): boolean {
  const question = response.questions?.[0];
  return (
    response.id === id &&
    question !== undefined &&
    question.type === type &&
    question.name.toLowerCase().replace(/\.$/, '') === name.toLowerCase().replace(/\.$/, '')
  );
}

function overUdp(server: DnsServer, wire: Buffer, accept: (r: packet.Packet) => boolean, timeoutMs: number) {
  return new Promise<packet.Packet | null>((resolve) => {
    const socket = dgram.createSocket(isIP(server.address) === 6 ? 'udp6' : 'udp4');
    let settled = false;
    // Settles once: a late send error or a second datagram must not close the socket twice (that throws).
    const done = (value: packet.Packet | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.close();
      resolve(value);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    socket.on('error', () => done(null));
    socket.on('message', (message, from) => {
      // Anything not from the server we asked, or not about our question, is ignored (spoofing).
      if (from.port !== server.port || from.address.toLowerCase() !== server.address.toLowerCase()) return;
      try {
        const decoded = packet.decode(message);
        if (accept(decoded)) done(decoded);
      } catch {
        // A malformed datagram is not an answer; keep waiting.
      }
    });
    socket.send(wire, server.port, server.address, (error) => error && done(null));
  });
}

function overTcp(server: DnsServer, wire: Buffer, accept: (r: packet.Packet) => boolean, timeoutMs: number) {
  return new Promise<packet.Packet | null>((resolve) => {
    const socket = new Socket();
    let received = Buffer.alloc(0);
    let settled = false;
    const done = (value: packet.Packet | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(value);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    socket.on('error', () => done(null));
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (received.length > 70_000) return done(null);
      if (received.length < 2 || received.length < 2 + received.readUInt16BE(0)) return;
      try {
        const decoded = packet.streamDecode(received);
        done(accept(decoded) ? decoded : null);
      } catch {
        done(null);
      }
    });
    socket.connect(server.port, server.address, () => socket.write(packet.streamEncode(packet.decode(wire))));
  });
}

/**
 * One question to the servers in turn (two tries each): over UDP, again over TCP when the answer
 * is truncated. Throws DnsError when no server answered; an answer with an error rcode is returned.
 */
export async function queryDns(name: string, type: RecordType, options: QueryOptions): Promise<DnsResponse> {
  const timeoutMs = options.timeoutMs ?? 3_000;
  for (let attempt = 0; attempt < 2; attempt++) {
    for (const server of options.servers) {
      if (options.signal?.aborted) throw new DnsError('DNS-vraag afgebroken');
      const { id, wire } = questionOf(name, type, options);
      const accept = (r: packet.Packet) => matches(r, id, name, type);
      let response = await overUdp(server, wire, accept, timeoutMs);
      if (response && ((response.flags ?? 0) & packet.TRUNCATED_RESPONSE) !== 0)
        response = await overTcp(server, wire, accept, timeoutMs);
      if (!response) continue;
      const flags = response.flags ?? 0;
      return {
        rcode: RCODES[flags & 0xf] ?? `RCODE${flags & 0xf}`,
        authenticated: (flags & packet.AUTHENTIC_DATA) !== 0,
        answers: (response.answers ?? []).flatMap((a) =>
          a.type === type && 'data' in a ? [{ name: a.name, data: a.data as unknown }] : [],
        ),
        extendedError: extendedErrorOf(response),
        server,
      };
    }
  }
  throw new DnsError(`Geen antwoord van de DNS-server op ${type} ${name}`);
}

/**
 * A question asked again with CD (checking disabled) after a SERVFAIL, as internet.nl's resolver does
 * (checks/resolver.py): a zone whose signatures are bogus or expired still answers, and `unchecked`
 * says the answer was not validated. The failing answer's extended error is kept (it says why); when
 * the second question fails too, the SERVFAIL stands.
 */
export async function queryDnsUnchecked(
  name: string,
  type: RecordType,
  options: QueryOptions,
): Promise<DnsResponse & { unchecked: boolean }> {
  const response = await queryDns(name, type, options);
  if (response.rcode !== 'SERVFAIL') return { ...response, unchecked: false };
  const retried = await queryDns(name, type, { ...options, checkingDisabled: true }).catch(() => null);
  if (!retried || retried.rcode === 'SERVFAIL') return { ...response, unchecked: false };
  return { ...retried, extendedError: response.extendedError ?? retried.extendedError, unchecked: true };
}

/** A TXT record's strings joined, as SPF, DMARC and the other mail records are read (RFC 7208 section 3.3). */
export const txtOf = (data: unknown): string =>
  (Array.isArray(data) ? data : [data])
    .map((part) => (Buffer.isBuffer(part) ? part.toString('utf8') : String(part)))
    .join('');
