import type { DB } from '../db/database.ts';
import type { Config } from './config.ts';

/** What every service function needs besides its actor: storage and settings, never a request. */
export interface ServiceDeps {
  db: DB;
  config: Config;
}
