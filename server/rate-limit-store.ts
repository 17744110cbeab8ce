import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { CounterStore } from '../services/limits/counter-store.ts';

/**
 * A limiter key that also says how many hits one check counts: a /trpc batch of seven calls is
 * seven hits in one increment, refused whole when it does not fit (@fastify/rate-limit counts one
 * hit per check; its store only sees the key).
 */
export const keyWithHits = (key: string, hits: number): string => (hits === 1 ? key : `${key}#${hits}`);

function splitKey(key: string): { key: string; hits: number } {
  const at = key.lastIndexOf('#');
  if (at === -1) return { key, hits: 1 };
  const hits = Number(key.slice(at + 1));
  return Number.isInteger(hits) && hits > 0 ? { key: key.slice(0, at), hits } : { key, hits: 1 };
}

/** @fastify/rate-limit's store contract over the service's CounterStore (memory, or Redis with REDIS_URL). */
export function rateLimitStore(store: CounterStore): FastifyRateLimitStoreCtor {
  return class implements FastifyRateLimitStore {
    incr(
      rawKey: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      const { key, hits } = splitKey(rawKey);
      store.increment(key, timeWindow, hits).then(
        ({ count, ttlMs }) => callback(null, { current: count, ttl: ttlMs }),
        (error: Error) => callback(error),
      );
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  };
}
