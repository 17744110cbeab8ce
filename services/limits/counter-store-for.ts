import { MemoryCounterStore, type CounterStore } from './counter-store.ts';
import { RedisCounterStore } from './redis-counter-store.ts';

/** Redis when REDIS_URL is set (several instances share the counts), memory otherwise. */
export function counterStoreFor(config: { REDIS_URL?: string }): CounterStore {
  return config.REDIS_URL ? new RedisCounterStore(config.REDIS_URL) : new MemoryCounterStore();
}
