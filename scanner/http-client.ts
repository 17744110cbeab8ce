import http from 'node:http';
import https from 'node:https';
import got, { type Got } from 'got';
import { assertLiteralHostAllowed, guardedLookup, type AddressPolicy } from './address-policy.ts';
import { refusalIn } from './errors.ts';
import { toHeaderMap } from './headers.ts';
import { nextTurn } from './turns.ts';
import type { FetchedResponse } from './types.ts';

export interface HttpClientOptions extends AddressPolicy {
  /** Per-request bound: connect, TLS, first byte and body together. */
  requestTimeoutMs: number;
  /** Connections per host, kept alive across the scan's requests. */
  maxSocketsPerHost: number;
  signal: AbortSignal;
}

export interface FetchOptions {
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  /** Bytes of body to keep; the rest is not downloaded. */
  maxBytes: number;
}

export const USER_AGENT = 'WebsiteSecurityScanner/1.0 (security scan)';

const clients = new Map<boolean, Got>();

/**
 * One got instance per address policy, shared by all scans: building got options is costly, and
 * twenty scans starting together would otherwise block the event loop while each builds its own.
 */
function gotFor(allowPrivateTargets: boolean): Got {
  let client = clients.get(allowPrivateTargets);
  if (!client) {
    client = got.extend({
      dnsLookup: guardedLookup({ allowPrivateTargets }) as never,
      followRedirect: false,
      throwHttpErrors: false,
      retry: { limit: 0 },
      decompress: true,
      // Certificates are judged by the TLS probe; here we want the headers even when the chain is bad,
      // and legacy protocols so a TLS 1.0-only site still yields a page.
      https: { rejectUnauthorized: false, minVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0' },
      headers: { 'user-agent': USER_AGENT, accept: '*/*' },
    });
    clients.set(allowPrivateTargets, client);
  }
  return client;
}

/** One scan's HTTP client: guarded addresses, timeouts, byte caps, keep-alive and a request count. */
export class HttpClient {
  requestCount = 0;
  private readonly got: Got;
  private readonly agents: { http: http.Agent; https: https.Agent };
  private readonly timeout: { lookup: number; connect: number; secureConnect: number; request: number };

  constructor(private readonly options: HttpClientOptions) {
    this.agents = {
      http: new http.Agent({ keepAlive: true, maxSockets: options.maxSocketsPerHost }),
      https: new https.Agent({ keepAlive: true, maxSockets: options.maxSocketsPerHost }),
    };
    const connectTimeout = Math.min(5_000, options.requestTimeoutMs);
    this.timeout = { lookup: connectTimeout, connect: connectTimeout, secureConnect: connectTimeout, request: options.requestTimeoutMs };
    this.got = gotFor(options.allowPrivateTargets);
  }

  /**
   * Fetches one URL without following redirects. Resolves null when the site does not answer;
   * rejects only when the address is refused by the SSRF guard.
   */
  async fetch(url: string, options: FetchOptions): Promise<FetchedResponse | null> {
    assertLiteralHostAllowed(new URL(url).hostname, this.options);
    this.requestCount += 1;
    // Building a got request costs about a millisecond; starting each on its own turn of the event
    // loop keeps concurrent scans from stacking dozens of them into one long blocking stretch.
    await nextTurn();
    try {
      return await this.read(url, options);
    } catch (error) {
      const refusal = refusalIn(error);
      if (refusal) throw refusal;
      return null;
    }
  }

  private read(url: string, options: FetchOptions): Promise<FetchedResponse> {
    return new Promise((resolve, reject) => {
      const stream = this.got.stream(url, {
        method: options.method ?? 'GET',
        body: options.body,
        headers: options.headers,
        agent: this.agents,
        signal: this.options.signal,
        timeout: this.timeout,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      let response: http.IncomingMessage | null = null;
      const finish = () => {
        if (!response) return;
        resolve({
          url,
          status: response.statusCode ?? 0,
          headers: toHeaderMap(response.headersDistinct),
          body: Buffer.concat(chunks).subarray(0, options.maxBytes),
        });
      };
      stream.on('response', (res: http.IncomingMessage) => {
        response = res;
      });
      stream.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= options.maxBytes) {
          finish();
          stream.destroy();
        }
      });
      stream.on('end', finish);
      stream.on('error', (error) => (response && size > 0 ? finish() : reject(error)));
    });
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
