import { systemClock, type Clock } from '../../infra/clock.ts';
/** A window's count after an increment, and how long the window has left. */
export interface WindowCount {
  count: number;
  ttlMs: number;
}

/**
 * The one interface for short-window counters. In memory by default; a shared store (Redis,
 * PostgreSQL) implements the same two methods when several processes serve the API.
 */
export interface CounterStore {
  /**
   * Adds `amount` (one by default) to the key's counter in its current window; the window starts
   * with the first hit.
   */
  increment(key: string, windowMs: number, amount?: number): Promise<WindowCount>;
  /**
   * Adds `amount` to a long-lived total that every instance shares and returns the new total; a
   * missing total starts at `seed`. Only shared stores have it: in one process, the caller's own
   * sum is the same figure without a round trip.
   */
  addToTotal?(key: string, amount: number, seed: number, ttlMs: number): Promise<number>;
  close(): void;
}

/** Counters of one process: right for a single instance only. */
export class MemoryCounterStore implements CounterStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    sweepEveryMs = 60_000,
    private readonly clock: Clock = systemClock,
  ) {
    // Expired windows are dropped so the map does not grow with every key and address ever seen.
    this.sweeper = setInterval(() => {
      const now = this.clock.now();
      for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    }, sweepEveryMs);
    this.sweeper.unref();
  }

  async increment(key: string, windowMs: number, amount = 1): Promise<WindowCount> {
    const now = this.clock.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += amount;
    return { count: window.count, ttlMs: window.resetAt - now };
  }

  close(): void {
    clearInterval(this.sweeper);
  }
}
