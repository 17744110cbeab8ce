import { setImmediate as nextTurn, setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigratedDatabase, type DB } from '../db/database.ts';
import * as admin from '../services/admin.ts';
import { CachedKeyLookup } from '../services/auth.ts';
import { seedTenant, TEST_CONFIG } from './support/api.ts';
import { freshDatabase, type TestDatabase } from './support/database.ts';

// The service's key cache must notice a commit made elsewhere - the admin CLI or the dashboard in
// another process - even when the service itself writes nothing in between (its usage flush would
// otherwise hide a signal that does not work: the end-to-end CLI test takes over a second).
let database: TestDatabase;
let service: DB;
let elsewhere: DB;
beforeAll(async () => {
  database = await freshDatabase('key-cache');
  service = await openMigratedDatabase(database.location);
  elsewhere = await openMigratedDatabase(database.location);
});
afterAll(async () => {
  await service.destroy();
  await elsewhere.destroy();
  await database.drop();
});

/** PostgreSQL delivers its NOTIFY on its own connection, so there the answer may take a moment. */
async function settled(lookup: () => Promise<unknown>, until: (answer: unknown) => boolean): Promise<unknown> {
  const patience = process.env.TEST_POSTGRES_URL ? 40 : 1;
  let answer = await lookup();
  for (let tries = 1; tries < patience && !until(answer); tries++) {
    await delay(50);
    answer = await lookup();
  }
  return answer;
}

/** True once the key is answered from memory: the same object across a turn, not looked up again. */
function answersFromCache(keys: CachedKeyLookup, key: string): Promise<unknown> {
  const sameAfterTurn = async () => {
    const before = await keys.authenticate(key);
    await nextTurn();
    return (await keys.authenticate(key)) === before;
  };
  return settled(sameAfterTurn, (same) => same === true);
}

describe('CachedKeyLookup', () => {
  it('answers a key revoked on another connection with null at the next event-loop turn', async () => {
    const tenant = await seedTenant(service, 'https://cache.example/');
    const keys = new CachedKeyLookup(service);
    try {
      expect(await keys.authenticate(tenant.key)).toMatchObject({
        tenantId: tenant.tenantId,
        actor: { id: tenant.keyId },
      });
      // Cached first (on PostgreSQL once its LISTEN connection is up), so the revocation must clear it.
      expect(await answersFromCache(keys, tenant.key)).toBe(true);
      await admin.revokeKey({ db: elsewhere, config: TEST_CONFIG }, { key_id: tenant.keyId });
      await nextTurn();
      expect(
        await settled(
          async () => keys.authenticate(tenant.key),
          (answer) => answer === null,
        ),
      ).toBeNull();
    } finally {
      await keys.close();
    }
  });

  it('keeps answering from the cache while nothing is committed', async () => {
    const tenant = await seedTenant(service, 'https://cache-blijft.example/');
    const keys = new CachedKeyLookup(service);
    try {
      expect(await answersFromCache(keys, tenant.key)).toBe(true);
    } finally {
      await keys.close();
    }
  });
});
