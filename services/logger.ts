import { pino } from 'pino';

/** What services and workers log through: the HTTP server's logger, or a worker process's own. */
export type Logger = Pick<pino.Logger, 'info' | 'warn' | 'error'>;

/** A JSON logger for processes without an HTTP server (npm run worker), at the configured level. */
export function processLogger(level: string, name: string): pino.Logger {
  return pino({ level, name });
}
