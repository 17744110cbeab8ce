import type SQLite from 'better-sqlite3';
import pg from 'pg';
import { postgresUrlOf, sqliteHandleOf, type DB } from './database.ts';

/**
 * Tells whether anything that could change a key lookup has been committed since a version was
 * read. `version()` answers a value that changes with every such commit, or null when it cannot
 * know (callers then do not cache).
 */
export interface ChangeSignal {
  version(): string | null;
  close(): Promise<void>;
}

/**
 * SQLite: data_version changes when another connection committed (the admin CLI, another process),
 * total_changes() when this one did. Both are read from memory, without I/O, by a statement
 * prepared once on the service's own connection (total_changes() is per connection): this runs on
 * every authenticated request, where Kysely's query building cost more than the read.
 */
function sqliteSignal(sqlite: SQLite.Database): ChangeSignal {
  // Two plain statements: reading the pragma as a table-valued function costs more than both.
  const dataVersion = sqlite.prepare<[], number>('PRAGMA data_version').pluck();
  const totalChanges = sqlite.prepare<[], number>('SELECT total_changes()').pluck();
  // Read once per event-loop turn: requests handled in one turn arrived together, so none of them
  // was sent after a commit that another of them could not see.
  let current: string | null = null;
  const forget = () => {
    current = null;
  };
  return {
    version() {
      if (current === null) {
        current = `${dataVersion.get()}:${totalChanges.get()}`;
        setImmediate(forget);
      }
      return current;
    },
    close: async () => {},
  };
}

const RECONNECT_MS = 1_000;

/**
 * PostgreSQL: one dedicated connection LISTENs on key_changes (sent by triggers, migration 0013);
 * each notification moves the version on. While that connection is down the version is null, and
 * every (re)connection moves it on too, since notifications sent meanwhile are lost.
 */
function postgresSignal(url: string): ChangeSignal {
  let generation = 0;
  let client: pg.Client | null = null;
  let listening = false;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const lost = (which: pg.Client) => {
    if (client !== which) return;
    listening = false;
    client = null;
    which.end().catch(() => {});
    if (!stopped) retry = setTimeout(connect, RECONNECT_MS);
  };
  const connect = () => {
    const next = new pg.Client({ connectionString: url });
    client = next;
    next.on('notification', () => {
      generation += 1;
    });
    next.on('error', () => lost(next));
    next.on('end', () => lost(next));
    next
      .connect()
      .then(() => next.query('LISTEN key_changes'))
      .then(() => {
        if (client !== next) return;
        generation += 1;
        listening = true;
      })
      .catch(() => lost(next));
  };
  connect();
  return {
    version: () => (listening ? `pg:${generation}` : null),
    async close() {
      stopped = true;
      clearTimeout(retry);
      const open = client;
      client = null;
      listening = false;
      await open?.end().catch(() => {});
    },
  };
}

export function openChangeSignal(db: DB): ChangeSignal {
  const url = postgresUrlOf(db);
  if (url) return postgresSignal(url);
  const sqlite = sqliteHandleOf(db);
  // A database opened some other way: no signal, so keys are looked up on every request.
  return sqlite ? sqliteSignal(sqlite) : { version: () => null, close: async () => {} };
}
