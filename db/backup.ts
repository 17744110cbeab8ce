import { existsSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { isPostgresUrl } from './dialect.ts';

export class BackupRefused extends Error {}

/**
 * A consistent copy of the SQLite database while the service runs: VACUUM INTO reads one snapshot
 * in a single read transaction (WAL lets writers go on) and writes a compact file. PostgreSQL is
 * backed up with its own tools (pg_dump).
 */
export function backupSqlite(location: string, out: string): { bytes: number } {
  if (isPostgresUrl(location))
    throw new BackupRefused(
      'PostgreSQL is backed up with pg_dump (see docs/operations.md, Backup and restore); this command copies the SQLite file.',
    );
  if (location === ':memory:' || !existsSync(location)) throw new BackupRefused(`no SQLite database at ${location}`);
  if (existsSync(out)) throw new BackupRefused(`${out} exists already; choose a new file`);
  const db = new SQLite(location, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare('VACUUM INTO ?').run(out);
    const check = new SQLite(out, { readonly: true });
    try {
      const result = check.pragma('integrity_check', { simple: true });
      if (result !== 'ok') throw new BackupRefused(`the copy failed its integrity check: ${String(result)}`);
      return {
        bytes:
          (check.pragma('page_count', { simple: true }) as number) *
          (check.pragma('page_size', { simple: true }) as number),
      };
    } finally {
      check.close();
    }
  } finally {
    db.close();
  }
}
