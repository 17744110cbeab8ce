import { QueryClient } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import type { inferRouterOutputs } from '@trpc/server';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import type { AppRouter } from '../../routers/index.ts';

// The dashboard calls the same router as agents, typed end to end, with its session cookie.
export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 5_000,
      // A refused or missing resource does not get better by asking again.
      retry: (failures, error) =>
        failures < 2 && !(error instanceof TRPCClientError && error.data?.httpStatus && error.data.httpStatus < 500),
    },
  },
});

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    httpBatchLink({ url: '/trpc', fetch: (url, options) => fetch(url, { ...options, credentials: 'same-origin' }) }),
  ],
});

/** The Dutch message of a failed call, as the service wrote it. */
export function errorText(error: unknown): string {
  if (error instanceof TRPCClientError) return error.message;
  return 'Er ging iets mis. Probeer het opnieuw.';
}

/** What each procedure answers, from the router's own types. */
export type Outputs = inferRouterOutputs<AppRouter>;
export type Me = Outputs['account']['me'];
