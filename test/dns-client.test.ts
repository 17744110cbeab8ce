import dgram from 'node:dgram';
import net from 'node:net';
import * as packet from 'dns-packet';
import { afterEach, describe, expect, it } from 'vitest';
import { DnsError, parseDnsServer, queryDns } from '../scanner/net/dns-client.ts';

// The scanner's DNS client against hostile and awkward name servers on loopback: answers with the
// wrong id, truncated answers that need TCP, silence, and the address forms SCANNER_DNS_SERVERS takes.

type Question = packet.Packet & { id: number };
const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** A name server on 127.0.0.1: UDP answers come from `udp`, TCP answers (when given) from `tcp`. */
async function nameServer(
  udp: (q: Question) => Buffer[] | null,
  tcp?: (q: Question) => Buffer,
): Promise<{ port: number; udpQuestions: number; tcpQuestions: number }> {
  const counts = { udpQuestions: 0, tcpQuestions: 0 };
  const tcpServer = net.createServer((socket) => {
    socket.on('data', (data) => {
      counts.tcpQuestions += 1;
      const question = packet.streamDecode(data) as Question;
      if (tcp) socket.end(packet.streamEncode(packet.decode(tcp(question))));
    });
  });
  await new Promise<void>((resolve) => tcpServer.listen(0, '127.0.0.1', resolve));
  const port = (tcpServer.address() as net.AddressInfo).port;
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(port, '127.0.0.1', resolve));
  socket.on('message', (message, from) => {
    counts.udpQuestions += 1;
    for (const reply of udp(packet.decode(message) as Question) ?? []) socket.send(reply, from.port, from.address);
  });
  closers.push(() => {
    socket.close();
    tcpServer.close();
  });
  return Object.assign(counts, { port });
}

const answer = (q: Question, address: string, options: { id?: number; truncated?: boolean } = {}) =>
  packet.encode({
    type: 'response',
    id: options.id ?? q.id,
    flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | (options.truncated ? packet.TRUNCATED_RESPONSE : 0),
    questions: q.questions,
    answers: options.truncated ? [] : [{ type: 'A', name: q.questions![0]!.name, ttl: 60, data: address }],
  });

describe('the DNS client', () => {
  it('ignores an answer with another id and takes the one to its question', async () => {
    const server = await nameServer((q) => [
      answer(q, '192.0.2.66', { id: (q.id + 1) % 65_536 }),
      answer(q, '192.0.2.1'),
    ]);
    const response = await queryDns('www.voorbeeld.nl', 'A', {
      servers: [{ address: '127.0.0.1', port: server.port }],
    });
    expect(response.answers.map((a) => a.data)).toEqual(['192.0.2.1']);
  });

  it('asks again over TCP when the UDP answer is truncated', async () => {
    const server = await nameServer(
      (q) => [answer(q, '', { truncated: true })],
      (q) => answer(q, '192.0.2.7'),
    );
    const response = await queryDns('groot.voorbeeld.nl', 'A', {
      servers: [{ address: '127.0.0.1', port: server.port }],
    });
    expect(response.answers.map((a) => a.data)).toEqual(['192.0.2.7']);
    expect(server.tcpQuestions).toBe(1);
  });

  it('gives up on a silent server after its time-out, twice, with a Dutch error', async () => {
    const server = await nameServer(() => null);
    await expect(
      queryDns('stil.voorbeeld.nl', 'A', { servers: [{ address: '127.0.0.1', port: server.port }], timeoutMs: 100 }),
    ).rejects.toThrow(DnsError);
    expect(server.udpQuestions).toBe(2);
  });

  it('reads the server forms of SCANNER_DNS_SERVERS', () => {
    expect(parseDnsServer('192.0.2.53')).toEqual({ address: '192.0.2.53', port: 53 });
    expect(parseDnsServer('192.0.2.53:5353')).toEqual({ address: '192.0.2.53', port: 5353 });
    expect(parseDnsServer('2001:db8::53')).toEqual({ address: '2001:db8::53', port: 53 });
    expect(parseDnsServer('[2001:db8::53]:5353')).toEqual({ address: '2001:db8::53', port: 5353 });
  });
});
