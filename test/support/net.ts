import type { ChildProcess } from 'node:child_process';
import net from 'node:net';

/**
 * The port a server process reports once it listens. Started with PORT=0 it binds a port itself,
 * so no test guesses a free one; the promise rejects if the process exits first.
 */
export function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const port = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1];
      if (port) resolve(Number(port));
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before listening`)));
  });
}

/**
 * A loopback port that was free a moment ago. Only for commands that must know their port before
 * they start and cannot report it (the README walk-through, as a user runs it, and the bench);
 * everything else binds port 0 and reads the port back.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
