import type { DB } from '../db/database.ts';
import type { Principal } from '../services/auth.ts';
import type { Config } from '../services/config.ts';

/** What every procedure can use; services get the tenant id from the principal explicitly. */
export interface Deps {
  db: DB;
  config: Config;
}

export interface Context extends Deps {
  principal: Principal | null;
}
