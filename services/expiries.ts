import type { z } from 'zod';
import type { SiteGetInput } from '../routers/sites/schemas.ts';
import { expiriesOfSite } from '../db/expiries.ts';
import { findSite } from '../db/sites.ts';
import { assertPermission, type Actor } from '../domain/actor.ts';
import { NotFound } from '../domain/errors.ts';
import type { ExpiryKind } from '../domain/vocabulary.ts';
import { nowOf, type ServiceDeps } from './deps.ts';

const DAY_MS = 86_400_000;

/** Whole days until an end; negative once it has passed. */
export const daysLeft = (notAfter: string, now: number) => Math.floor((Date.parse(notAfter) - now) / DAY_MS);

/** One dated item as the API shows it. */
export function expiryView(
  row: { kind: ExpiryKind; subject: string; not_after: string; scan_id: string },
  now: number,
) {
  return {
    kind: row.kind,
    subject: row.subject,
    not_after: row.not_after,
    days_left: daysLeft(row.not_after, now),
    scan_id: row.scan_id,
  };
}

/**
 * GET /sites/{site_id}/expiries: what ends when on the site, from its latest scan: the leaf
 * certificate, the intermediates validation uses and security.txt's Expires, soonest first.
 */
export async function siteExpiries(deps: ServiceDeps, actor: Actor, input: z.infer<typeof SiteGetInput>) {
  assertPermission(actor, 'read_scans');
  if (!(await findSite(deps.db, actor.tenantId, input.site_id))) throw new NotFound('Site');
  const now = nowOf(deps);
  return {
    expiries: (await expiriesOfSite(deps.db, actor.tenantId, input.site_id)).map((row) => expiryView(row, now)),
  };
}
