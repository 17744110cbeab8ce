import type { DB } from '../db/database.ts';
import { authenticate, bearerToken, type Principal } from '../server/auth.ts';
import type { Config } from '../server/config.ts';

/** What every procedure can use; services get the tenant id from the principal explicitly. */
export interface Deps {
  db: DB;
  config: Config;
}

export interface Context extends Deps {
  principal: Principal | null;
}

export async function createContext(deps: Deps, authorization: string | undefined): Promise<Context> {
  const token = bearerToken(authorization);
  return { ...deps, principal: token ? await authenticate(deps.db, token) : null };
}
