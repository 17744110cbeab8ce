import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type DB } from '../db/database.ts';
import { waitFor } from './support/receiver.ts';

const dir = mkdtempSync(join(tmpdir(), 'wss-checkpoint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes about 4 MB in 40 commits: four times what one auto-checkpoint (1,000 pages) would allow. */
async function writeMegabytes(db: DB): Promise<void> {
  await sql`CREATE TABLE filler (body TEXT)`.execute(db);
  for (let i = 0; i < 40; i++)
    await sql`INSERT INTO filler (body) SELECT printf('%.1000c', 'x') FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) SELECT i FROM n)`.execute(
      db,
    );
}

const sizeOf = (path: string) => statSync(path).size;

describe('WAL checkpoints of a long-running SQLite process', () => {
  it('happen in a worker thread: commits never checkpoint, and the data still reaches the database file within seconds', async () => {
    const path = join(dir, 'background.db');
    const db = openDatabase(path, { backgroundCheckpoints: true });
    try {
      const { rows } = await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(db);
      expect(rows[0]!.wal_autocheckpoint).toBe(0);
      await writeMegabytes(db);
      await waitFor(() => sizeOf(path) > 4_000_000, 10_000);
    } finally {
      await db.destroy();
    }
  });

  it('stay in the committing connection without the option (short-lived processes such as the admin CLI)', async () => {
    const path = join(dir, 'inline.db');
    const db = openDatabase(path);
    try {
      const { rows } = await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(db);
      expect(rows[0]!.wal_autocheckpoint).toBe(1000);
      await writeMegabytes(db);
      // Auto-checkpoints ran inside the commits: the file holds all but the last few hundred pages.
      expect(sizeOf(path)).toBeGreaterThan(3_000_000);
    } finally {
      await db.destroy();
    }
  });
});
