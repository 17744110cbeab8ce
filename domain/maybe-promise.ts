/** A value at hand, or a promise of it: hot paths answer at once when everything is in memory. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * Runs `next` on the value at once when it is at hand, after it settles otherwise. A request that
 * finds its key, counters and quota in memory then costs no promise turns; one that must wait for
 * the database or Redis waits as before. A throw in `next` is thrown, or rejects the promise.
 */
export function andThen<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
