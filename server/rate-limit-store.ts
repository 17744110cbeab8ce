import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { CounterStore } from '../services/limits/counter-store.ts';

/** Adapts a CounterStore to @fastify/rate-limit's store contract. */
export function rateLimitStore(store: CounterStore): FastifyRateLimitStoreCtor {
  return class implements FastifyRateLimitStore {
    // The plugin constructs its store with its options; windows come with every increment instead.
    constructor(_options: FastifyRateLimitOptions) {}

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      store.increment(key, timeWindow).then(
        ({ count, ttlMs }) => callback(null, { current: count, ttl: ttlMs }),
        (error: Error) => callback(error),
      );
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  };
}
