/** Where services, the sweeper, the scheduler and the outbox read the time: tests move it instead of waiting. */
export interface Clock {
  /** Milliseconds since the epoch, as Date.now(). */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock a test sets and moves. */
export function movableClock(start = Date.now()): Clock & { advance(ms: number): void; set(ms: number): void } {
  let at = start;
  return {
    now: () => at,
    advance(ms) {
      at += ms;
    },
    set(ms) {
      at = ms;
    },
  };
}
