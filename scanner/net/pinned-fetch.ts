import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { refusalReason, type AddressPolicy } from './address-policy.ts';
import { headersFromRaw } from './headers.ts';
import type { HeaderMap } from './http-evidence.ts';
import { USER_AGENT } from './http-client.ts';

/** The most of a page read to compare it between address families. */
const MAX_BODY_BYTES = 256 * 1024;

/** A look-up that always answers this address; Node asks for all addresses when it may try both families. */
function pinnedLookup(address: string, family: number): LookupFunction {
  return (_host, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/**
 * GET one URL at one address (the site's name still in Host and SNI): how internet.nl compares the
 * page over IPv4 and IPv6. No redirects followed; null when the address is refused or does not answer.
 */
export function fetchAtAddress(
  url: string,
  address: string,
  options: AddressPolicy & { timeoutMs: number; signal: AbortSignal },
): Promise<{ status: number; body: string; headers: HeaderMap } | null> {
  if (refusalReason(address, options)) return Promise.resolve(null);
  const target = new URL(url);
  const family = isIP(address);
  return new Promise((resolve) => {
    const client = target.protocol === 'https:' ? https : http;
    const request = client.get(
      target,
      {
        headers: { 'user-agent': USER_AGENT, accept: 'text/html,*/*' },
        lookup: pinnedLookup(address, family),
        servername: isIP(target.hostname) ? undefined : target.hostname,
        // The certificate is judged elsewhere; this only compares content.
        rejectUnauthorized: false,
        timeout: options.timeoutMs,
        signal: options.signal,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_BODY_BYTES) chunks.push(chunk);
          else response.destroy();
        });
        const done = () =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('latin1'),
            headers: headersFromRaw(response.rawHeaders),
          });
        response.on('end', done);
        response.on('close', done);
        response.on('error', () => resolve(null));
      },
    );
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(null));
  });
}
