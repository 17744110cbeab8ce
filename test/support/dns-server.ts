import dgram from 'node:dgram';
import dnsPacket, { type Answer } from 'dns-packet';

/** Records by lowercase name: A addresses, TXT and CAA records as a name server holds them. */
export interface Zone {
  [name: string]: {
    a?: string[];
    /** TXT records, one string each. */
    txt?: string[];
    caa?: Array<{
      tag: 'issue' | 'issuewild' | 'iodef';
      value: string;
      flags?: number;
    }>;
    /** Question types answered with SERVFAIL, as a broken name server does. */
    servfail?: string[];
    /** Question types never answered, as some servers and middleboxes treat AAAA or CAA. */
    silent?: string[];
    /** An extended DNS error (RFC 8914 info code) on the NOERROR answer to these question types. */
    ede?: Record<string, number>;
  };
}

export interface DnsServer {
  /** "127.0.0.1:port", as SCANNER_DNS_SERVERS takes it. */
  address: string;
  /** Questions asked, as "TYPE name". */
  questions: string[];
  close: () => Promise<void>;
}

/**
 * The reply with an OPT record carrying one extended DNS error (RFC 8914, option 15), written out by
 * hand: dns-packet's types know no EDE option.
 */
function withExtendedError(reply: Buffer, infoCode: number): Buffer {
  const opt = Buffer.alloc(17);
  opt.writeUInt16BE(41, 1); // type OPT, after the root name's zero byte
  opt.writeUInt16BE(1232, 3); // UDP payload size; TTL (extended rcode, version, flags) stays 0
  opt.writeUInt16BE(6, 9); // RDLENGTH
  opt.writeUInt16BE(15, 11); // option EDE
  opt.writeUInt16BE(2, 13);
  opt.writeUInt16BE(infoCode, 15);
  const out = Buffer.concat([reply, opt]);
  out.writeUInt16BE(out.readUInt16BE(10) + 1, 10); // ARCOUNT
  return out;
}

/**
 * An authoritative name server for `zone` on loopback UDP: NXDOMAIN for unknown names, NOERROR with
 * no answers (NODATA) for a known name without records of the asked type, SERVFAIL where the zone says.
 */
export async function startDnsServer(zone: Zone): Promise<DnsServer> {
  const socket = dgram.createSocket('udp4');
  const questions: string[] = [];
  socket.on('message', (message, peer) => {
    let query: dnsPacket.DecodedPacket;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    questions.push(`${question.type} ${question.name}`);
    const entry = zone[question.name.toLowerCase().replace(/\.$/, '')];
    if (entry?.silent?.includes(question.type)) return;
    const answers: Answer[] = [];
    if (entry && question.type === 'A')
      for (const data of entry.a ?? []) answers.push({ type: 'A', name: question.name, ttl: 60, data });
    if (entry && question.type === 'TXT')
      for (const data of entry.txt ?? []) answers.push({ type: 'TXT', name: question.name, ttl: 60, data });
    if (entry && question.type === 'CAA') {
      for (const record of entry.caa ?? [])
        answers.push({
          type: 'CAA',
          name: question.name,
          ttl: 60,
          data: { flags: record.flags ?? 0, tag: record.tag, value: record.value, issuerCritical: false },
        });
    }
    const rcode = entry?.servfail?.includes(question.type) ? 'SERVFAIL' : entry ? 'NOERROR' : 'NXDOMAIN';
    const reply = dnsPacket.encode({
      type: 'response',
      id: query.id,
      flags: dnsPacket.AUTHORITATIVE_ANSWER | (rcode === 'SERVFAIL' ? 2 : rcode === 'NXDOMAIN' ? 3 : 0),
      questions: [question],
      answers,
    });
    const ede = entry?.ede?.[question.type];
    socket.send(ede === undefined ? reply : withExtendedError(reply, ede), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    questions,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
