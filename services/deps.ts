import type { DB } from '../db/database.ts';
import { systemClock, type Clock } from '../infra/clock.ts';
import type { Config } from '../infra/config.ts';
import type { CounterStore } from './limits/counter-store.ts';

/** What every service function needs besides its actor: storage and settings, never a request. */
export interface ServiceDeps {
  db: DB;
  config: Config;
  /** The time; the system's when absent (tests pass a movable one). */
  clock?: Clock;
  /** Where a service reports what went wrong without failing the call (a scanner check that threw). */
  log?: ServiceLog;
  /** Short-window counters (log-in attempts), shared with the rate limits; the transport provides them. */
  counters?: CounterStore;
}

/** The part of the service's logger (pino) a service writes to. */
export interface ServiceLog {
  warn(details: object, message: string): void;
}

/** The current time of the deps' clock, in milliseconds. */
export const nowOf = (deps: Pick<ServiceDeps, 'clock'>): number => (deps.clock ?? systemClock).now();

/** The current time of the deps' clock, as the ISO 8601 text the database stores. */
export const isoNow = (deps: Pick<ServiceDeps, 'clock'>): string => new Date(nowOf(deps)).toISOString();
