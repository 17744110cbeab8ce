import type http from 'node:http';
import type { Got } from 'got';
import type { AddressPolicy } from './address-policy.ts';
import { guardedAgents, guardedGot, type GuardedAgents } from './guarded-http.ts';
import { refusalIn } from '../errors.ts';
import { headersFromRaw } from './headers.ts';
import { nextTurn } from '../turns.ts';
import type { FetchedResponse } from './http-evidence.ts';

export interface HttpClientOptions extends AddressPolicy {
  /** Per-request bound: connect, TLS, first byte and body together. */
  requestTimeoutMs: number;
  /** Connections per host, kept alive across the scan's requests. */
  maxSocketsPerHost: number;
  signal: AbortSignal;
}

export interface FetchOptions {
  method?: 'GET' | 'HEAD' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  /** Bytes of (decompressed) body to keep; the rest is not downloaded. */
  maxBytes: number;
}

/** Why a request got no answer: its own time-out, the scan's end, a refused connection, or another failure. */
export type FetchFailure = 'timeout' | 'deadline' | 'refused' | 'error';

function failureKind(error: unknown, signal: AbortSignal): FetchFailure {
  if (signal.aborted) return 'deadline';
  const { code, name } = (error ?? {}) as { code?: string; name?: string };
  if (name === 'TimeoutError' || code === 'ETIMEDOUT') return 'timeout';
  if (code === 'ECONNREFUSED') return 'refused';
  return 'error';
}

export const USER_AGENT = 'WebsiteSecurityScanner/1.0 (security scan)';

/** Browsers accept far larger response headers than Node's 16 KiB default; real sites send them. */
export const MAX_RESPONSE_HEADER_BYTES = 256 * 1024;

/**
 * One got instance shared by all scans: building got options is costly, and twenty scans starting
 * together would otherwise block the event loop while each builds its own.
 */
const scannerGot: Got = guardedGot.extend({
  decompress: true,
  maxHeaderSize: MAX_RESPONSE_HEADER_BYTES,
  // Certificates are judged by the TLS probe; here we want the headers even when the chain is bad,
  // and legacy protocols so a TLS 1.0-only site still yields a page.
  https: { rejectUnauthorized: false, minVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0' },
  headers: { 'user-agent': USER_AGENT, accept: '*/*', 'accept-encoding': 'gzip, deflate, br' },
});

/** One scan's HTTP client: guarded addresses, timeouts, byte caps, keep-alive and a request count. */
export class HttpClient {
  requestCount = 0;
  /** Why each URL that got no answer failed, for the scan's coverage. */
  private readonly failures = new Map<string, FetchFailure>();
  private readonly agents: GuardedAgents;
  private readonly timeout: { lookup: number; connect: number; secureConnect: number; request: number };

  constructor(private readonly options: HttpClientOptions) {
    this.agents = guardedAgents(options, { keepAlive: true, maxSockets: options.maxSocketsPerHost });
    const connectTimeout = Math.min(5_000, options.requestTimeoutMs);
    this.timeout = {
      lookup: connectTimeout,
      connect: connectTimeout,
      secureConnect: connectTimeout,
      request: options.requestTimeoutMs,
    };
  }

  /**
   * Fetches one URL without following redirects. Resolves null when the site does not answer;
   * rejects only when the address is refused by the SSRF guard.
   */
  async fetch(url: string, options: FetchOptions): Promise<FetchedResponse | null> {
    this.requestCount += 1;
    // Building a got request costs about a millisecond; starting each on its own turn of the event
    // loop keeps concurrent scans from stacking dozens of them into one long blocking stretch.
    await nextTurn();
    this.failures.delete(url);
    try {
      return await this.read(url, options);
    } catch (error) {
      const refusal = refusalIn(error);
      if (refusal) throw refusal;
      this.failures.set(url, failureKind(error, this.options.signal));
      return null;
    }
  }

  /** Why a request for `url` got no answer or only part of its body; undefined when read whole or never made. */
  failureOf(url: string): FetchFailure | undefined {
    return this.failures.get(url);
  }

  /** The bound of one request, for reasons such as "time-out na 10 s". */
  get requestTimeoutMs(): number {
    return this.options.requestTimeoutMs;
  }

  /**
   * Reads status, headers and the first maxBytes of the body. Once the headers have arrived, a
   * broken body (reset, bad compression, timeout, short Content-Length) still yields what was
   * read. No handler can throw outside the promise.
   */
  private read(url: string, options: FetchOptions): Promise<FetchedResponse> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const chunks: Buffer[] = [];
      let size = 0;
      let head: Pick<FetchedResponse, 'status' | 'headers'> | null = null;
      const settle = (error: unknown) => {
        if (settled) return;
        settled = true;
        stream.destroy();
        if (!head) return reject(error ?? new Error('no response'));
        // A body cut short is an answer, but not one read whole.
        if (error) this.failures.set(url, failureKind(error, this.options.signal));
        resolve({ url, ...head, body: Buffer.concat(chunks, size).subarray(0, options.maxBytes) });
      };
      const guard =
        <A extends unknown[]>(handler: (...args: A) => void) =>
        (...args: A) => {
          try {
            handler(...args);
          } catch (error) {
            settle(error);
          }
        };
      const stream = scannerGot.stream(url, {
        method: options.method ?? 'GET',
        body: options.body,
        headers: options.headers,
        agent: this.agents,
        signal: this.options.signal,
        timeout: this.timeout,
      });
      stream.on(
        'response',
        guard((res: http.IncomingMessage) => {
          // Headers from the wire: a decompressing stream carries rawHeaders but not headersDistinct.
          head = { status: res.statusCode ?? 0, headers: headersFromRaw(res.rawHeaders ?? []) };
        }),
      );
      stream.on(
        'data',
        guard((chunk: Buffer) => {
          if (settled) return;
          chunks.push(chunk);
          size += chunk.length;
          if (size >= options.maxBytes) settle(null);
        }),
      );
      stream.on('end', () => settle(null));
      stream.on('error', (error) => settle(error));
    });
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
