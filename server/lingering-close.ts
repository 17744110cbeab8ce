import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** How much of a refused body is read and thrown away, and for how long, before the 413 is sent. */
export const LINGER = { bytes: 16 * 1024 * 1024, ms: 5_000 } as const;

/** Reads the rest of a request body into nothing; true when it ended within the bounds. */
function drain(incoming: IncomingMessage): Promise<boolean> {
  return new Promise((resolve) => {
    let received = 0;
    const finish = (ended: boolean) => {
      clearTimeout(timer);
      incoming.off('data', count);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      if (!ended) incoming.pause();
      resolve(ended);
    };
    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received > LINGER.bytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onError = () => finish(false);
    const timer = setTimeout(() => finish(false), LINGER.ms);
    incoming.on('data', count);
    incoming.once('end', onEnd);
    incoming.once('error', onError);
    incoming.resume();
  });
}

/**
 * A 413 the client can read. Fastify refuses a body over the limit before reading it and closes the
 * connection while the client is still sending, so the client's next write fails (EPIPE) and the
 * answer is often lost. As nginx's lingering close does, the rest of the body is read and discarded
 * first, for at most LINGER.bytes or LINGER.ms; then the 413 goes out on a connection that stays
 * usable. A client that sends more or longer gets the 413 with the connection closed, as before.
 */
export function lingerOnRefusedBodies(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const incoming = request.raw;
    if (reply.statusCode !== 413 || incoming.complete) return payload;
    if (await drain(incoming)) reply.removeHeader('connection');
    return payload;
  });
}
