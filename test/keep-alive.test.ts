import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { startApi } from './support/api.ts';

// Since the server is made by a serverFactory (for its request timeouts), Fastify no longer set its
// keep-alive timeout on it and Node's 5 s applied: a client or load balancer reusing a pooled
// connection after a pause got "other side closed". KEEP_ALIVE_TIMEOUT (72 s) fixes it at the cause.

/** Sends raw HTTP/1.1 requests on one socket and reads each answer's status line and headers. */
function rawConnection(url: string) {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  let buffered = '';
  let closed = false;
  socket.on('data', (chunk) => (buffered += chunk.toString('latin1')));
  socket.on('close', () => (closed = true));
  socket.on('error', () => {});
  return {
    get closed() {
      return closed;
    },
    async get(path: string): Promise<string> {
      buffered = '';
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
      for (let waited = 0; !/\r\n\r\n[\s\S]*\}/.test(buffered) && !closed && waited < 5_000; waited += 20)
        await new Promise((r) => setTimeout(r, 20));
      return buffered;
    },
    end: () => socket.destroy(),
  };
}

describe('keep-alive', () => {
  it('keeps an idle connection open past 10 s (KEEP_ALIVE_TIMEOUT, 72 s by default): a second request on it gets 200', async () => {
    const api = await startApi();
    const connection = rawConnection(api.url);
    try {
      const first = await connection.get('/healthz');
      expect(first).toMatch(/^HTTP\/1\.1 200/);
      expect(first.toLowerCase()).toContain('keep-alive: timeout=72');
      await new Promise((r) => setTimeout(r, 10_500));
      expect(connection.closed).toBe(false);
      expect(await connection.get('/healthz')).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      connection.end();
      await api.close();
    }
  }, 30_000);
});
