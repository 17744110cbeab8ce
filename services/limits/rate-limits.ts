import { ERRORS, TooManyRequests, type LimitWindow } from '../../domain/errors.ts';
import { andThen, type MaybePromise } from '../../domain/maybe-promise.ts';
import type { CounterStore } from './counter-store.ts';

const WINDOW_MS = 60_000;

/**
 * Counts `hits` against `key`'s fixed one-minute window (it starts with the key's first hit) and
 * answers the window; over `max`, throws TooManyRequests carrying it, with Retry-After until the
 * window ends. Refused hits count too, so a client hammering past its limit stays refused. With
 * the memory store this answers at once; with Redis, after its round trip.
 */
export function countHits(store: CounterStore, key: string, max: number, hits = 1): MaybePromise<LimitWindow> {
  return andThen(store.increment(key, WINDOW_MS, hits), ({ count, ttlMs }) => {
    const window = { limit: max, remaining: Math.max(0, max - count), resetSeconds: Math.max(1, Math.ceil(ttlMs / 1000)) };
    if (count > max) throw new TooManyRequests(`${ERRORS.tooManyRequests} Probeer het opnieuw over ${window.resetSeconds} seconden.`, window.resetSeconds, window);
    return window;
  });
}
