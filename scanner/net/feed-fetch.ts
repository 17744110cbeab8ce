import { guardedAgents, guardedGot } from './guarded-http.ts';

/** The largest feed accepted (Wordfence's full feed is tens of MiB). */
export const MAX_FEED_BYTES = 256 * 1024 * 1024;
const TIMEOUT_MS = 120_000;

export type FetchedSource =
  | { status: 'not_modified' }
  | { status: 'fetched'; text: string; etag: string | null }
  | { status: 'failed'; reason: string };

/**
 * GETs a data file with If-None-Match, under the address guard (an operator's loopback mirror needs
 * SCANNER_ALLOW_PRIVATE_TARGETS, as any private address does). Never throws.
 */
export async function fetchSource(
  url: string,
  options: { etag?: string | null; headers?: Record<string, string>; allowPrivateTargets: boolean },
): Promise<FetchedSource> {
  try {
    const agents = guardedAgents({ allowPrivateTargets: options.allowPrivateTargets }, { keepAlive: false });
    const stream = guardedGot.stream(url, {
      agent: agents,
      timeout: { request: TIMEOUT_MS },
      headers: {
        accept: 'application/json',
        ...(options.etag ? { 'if-none-match': options.etag } : {}),
        ...options.headers,
      },
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let status = 0;
    let etag: string | null = null;
    stream.on('response', (response: { statusCode: number; headers: Record<string, string | undefined> }) => {
      status = response.statusCode;
      etag = response.headers.etag ?? null;
    });
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_FEED_BYTES) {
        stream.destroy();
        return { status: 'failed', reason: `larger than ${MAX_FEED_BYTES} bytes` };
      }
      if (status === 200) chunks.push(chunk);
    }
    if (status === 304) return { status: 'not_modified' };
    if (status !== 200) return { status: 'failed', reason: `HTTP ${status}` };
    return { status: 'fetched', text: Buffer.concat(chunks).toString('utf8'), etag };
  } catch (error) {
    return { status: 'failed', reason: (error as Error).message.slice(0, 200) };
  }
}
