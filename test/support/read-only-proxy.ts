import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReadOnlyProxy {
  url: string;
  /** Every request that was not GET or HEAD, as "METHOD path": refused with 405, never passed on. */
  refused: string[];
  /** Every request passed on, as "METHOD path". */
  passed: string[];
  close(): Promise<void>;
}

/**
 * A reverse proxy in front of a real server that passes on GET and HEAD only: a scan through it
 * shows that the scanner wrote nothing, and the server never sees another method.
 */
export async function readOnlyProxy(upstream: string): Promise<ReadOnlyProxy> {
  const target = new URL(upstream);
  const refused: string[] = [];
  const passed: string[] = [];
  const server = http.createServer((req, res) => {
    const line = `${req.method} ${req.url}`;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      refused.push(line);
      req.resume();
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('read-only proxy');
      return;
    }
    passed.push(line);
    const forward = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        // The Host the client sent, as a reverse proxy in front of a site passes it on.
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    refused,
    passed,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
