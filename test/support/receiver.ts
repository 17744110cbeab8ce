import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { certificate } from './fixture-sites.ts';

export interface Received {
  /** The status this receiver answered with. */
  status: number;
  headers: Record<string, string>;
  body: string;
  json: { type: string; timestamp: string; data: Record<string, unknown> };
}

export interface Receiver {
  url: string;
  port: number;
  /** Every request, successful or not. */
  received: Received[];
  /** Requests answered with 2xx. */
  delivered: () => Received[];
  /** Status for the next requests; the last one repeats. */
  respondWith: (...statuses: number[]) => void;
  /** Delay every answer by this many milliseconds. */
  delay: (ms: number) => void;
  close: () => Promise<void>;
}

/** An HTTPS webhook receiver on 127.0.0.1 with a certificate from the test CA. */
export async function startReceiver(port = 0): Promise<Receiver> {
  const received: Received[] = [];
  let statuses = [204];
  let delayMs = 0;
  const cert = certificate();
  const server = https.createServer({ key: cert.keyPem, cert: cert.certPem }, (req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const status = statuses.length > 1 ? statuses.shift()! : statuses[0]!;
      setTimeout(() => {
        received.push({ status, headers: req.headers as Record<string, string>, body, json: JSON.parse(body) });
        res.writeHead(status, status >= 300 && status < 400 ? { location: 'https://127.0.0.1/elsewhere' } : {}).end();
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actualPort = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${actualPort}/hook`,
    port: actualPort,
    received,
    delivered: () => received.filter((r) => r.status >= 200 && r.status < 300),
    respondWith: (...next) => {
      statuses = next;
    },
    delay: (ms) => {
      delayMs = ms;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
