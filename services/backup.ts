import { resolve } from 'node:path';
import { backupSqlite, BackupRefused } from '../db/backup.ts';
import { AdminError } from './admin.ts';
import { databaseLocation, type Config } from '../infra/config.ts';
import { secretsKeyFileOf } from '../infra/secret-encryption.ts';

/** The key that decrypts the webhook secrets of a backup: it must be kept with it. */
function secretsKeyOf(config: Config): string {
  return config.SECRETS_KEY
    ? 'SECRETS_KEY (the environment): restore with the same value'
    : resolve(secretsKeyFileOf(config.DATABASE_PATH));
}

/** An online backup of the SQLite database (admin backup --out FILE). */
export function backupDatabase(config: Config, out: string) {
  try {
    const { bytes } = backupSqlite(databaseLocation(config), resolve(out));
    return {
      backup: resolve(out),
      bytes,
      secrets_key: secretsKeyOf(config),
      restore:
        'stop the service, put the backup at DATABASE_PATH and the secrets key beside it (or set SECRETS_KEY), start',
    };
  } catch (error) {
    if (error instanceof BackupRefused) throw new AdminError(error.message);
    throw error;
  }
}
