import type { DB } from '../db/database.ts';
import type { Principal } from '../server/auth.ts';
import type { Config } from '../server/config.ts';

/** What every procedure can use; services get the tenant id from the principal explicitly. */
export interface Deps {
  db: DB;
  config: Config;
}

export interface Context extends Deps {
  principal: Principal | null;
}
