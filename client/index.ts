import { createTRPCClient, httpBatchLink, type TRPCClient } from '@trpc/client';
import type { AppRouter } from '../routers/index.ts';

export type { AppRouter };

/**
 * A typed client of the agent API over /trpc: `await client.scans.list.query({ limit: 5 })`.
 * Calls made in the same tick travel in one batch; each call still counts against the key's limit.
 */
export function createClient(baseUrl: string, apiKey: string): TRPCClient<AppRouter> {
  return createTRPCClient<AppRouter>({
    links: [httpBatchLink({ url: new URL('/trpc', baseUrl).href, headers: { authorization: `Bearer ${apiKey}` } })],
  });
}
