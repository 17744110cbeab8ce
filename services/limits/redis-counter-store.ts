import { Redis } from 'ioredis';
import type { CounterStore, WindowCount } from './counter-store.ts';

// One round trip per increment, atomic in Redis: the first hit of a window starts its expiry.
const INCREMENT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }`;

// The first instance to arrive starts the total at the stored count; INCRBY is atomic.
const ADD_TO_TOTAL = `
redis.call('SET', KEYS[1], ARGV[2], 'NX', 'PX', ARGV[3])
return redis.call('INCRBY', KEYS[1], ARGV[1])`;

/**
 * Window counters in Redis, shared by every API instance: a key's per-minute limit holds across
 * instances. Keys live only for their window.
 */
export class RedisCounterStore implements CounterStore {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly prefix = 'wss:limit:',
  ) {
    // Fail fast rather than queue: a request waits at most for one reconnect attempt.
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: true, lazyConnect: false });
    this.redis.on('error', () => {
      // Reported by the failing command; ioredis reconnects by itself.
    });
  }

  async increment(key: string, windowMs: number, amount = 1): Promise<WindowCount> {
    const result: unknown = await this.redis.eval(INCREMENT, 1, `${this.prefix}${key}`, windowMs, amount);
    if (!Array.isArray(result) || typeof result[0] !== 'number' || typeof result[1] !== 'number')
      throw new Error('unexpected answer from Redis');
    return { count: result[0], ttlMs: result[1] };
  }

  async addToTotal(key: string, amount: number, seed: number, ttlMs: number): Promise<number> {
    const result: unknown = await this.redis.eval(ADD_TO_TOTAL, 1, `${this.prefix}${key}`, amount, seed, ttlMs);
    if (typeof result !== 'number') throw new Error('unexpected answer from Redis');
    return result;
  }

  close(): void {
    this.redis.disconnect();
  }
}
