import type { DB } from '../db/database.ts';
import type { RecordedScan } from '../db/scans.ts';
import type { ScanTrigger } from '../domain/vocabulary.ts';
import type { ScanStage } from '../scanner/vocabulary.ts';
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
  /** The service's origin as the client addressed it, for absolute links (a SARIF log's docs); PUBLIC_URL otherwise. */
  publicOrigin?: () => string;
  /** How the caller of a scan stops it, hears its stages, names what started it and ends its own work with it. */
  scanControl?: ScanControl;
}

/** What a scan's caller adds to the call: the transport (MCP, REST) or the scheduler. */
export interface ScanControl {
  /** Stops the scan (a cancelled tool call, a client that disconnected): nothing is stored then. */
  signal?: AbortSignal;
  /** Told when each stage of the scan starts. */
  onProgress?: (stage: ScanStage) => void;
  /** What started the scan; by default what the actor is (a key: api, a user: dashboard, the system: schedule). */
  trigger?: ScanTrigger;
  /** Runs inside the transaction that stores the scan, so a job can finish atomically with it. */
  withinTransaction?: (trx: DB, recorded: RecordedScan) => Promise<void>;
}

/** The part of the service's logger (pino) a service writes to. */
export interface ServiceLog {
  warn(details: object, message: string): void;
}

/** The current time of the deps' clock, in milliseconds. */
export const nowOf = (deps: Pick<ServiceDeps, 'clock'>): number => (deps.clock ?? systemClock).now();

/** The current time of the deps' clock, as the ISO 8601 text the database stores. */
export const isoNow = (deps: Pick<ServiceDeps, 'clock'>): string => new Date(nowOf(deps)).toISOString();
