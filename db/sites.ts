import { randomUUID } from 'node:crypto';
import type { DB } from './database.ts';

export async function insertSite(db: DB, tenantId: string, name: string, url: string) {
  const site = { id: randomUUID(), tenant_id: tenantId, name, url, detected_platform: null, created_at: new Date().toISOString() };
  await db.insertInto('sites').values(site).execute();
  return site;
}

export async function findSite(db: DB, tenantId: string, id: string) {
  return db.selectFrom('sites').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

export async function countSites(db: DB, tenantId: string): Promise<number> {
  const row = await db.selectFrom('sites').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
  return Number(row.n);
}
