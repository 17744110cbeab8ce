import { listFindings as listFindingRows, type FindingFilters } from '../db/findings.ts';
import { assertPermission, type Actor } from '../domain/actor.ts';
import type { ServiceDeps } from './deps.ts';
import { pageOf, type Page } from './pages.ts';
import { findingView } from './views.ts';

/** The tenant's findings across scans: filtered, searched, most severe first, with a summary. */
export async function searchFindings(deps: ServiceDeps, actor: Actor, filters: FindingFilters, page: Page) {
  assertPermission(actor, 'read_findings');
  const { rows, summary, total } = await listFindingRows(deps.db, actor.tenantId, filters, page);
  return { findings: rows.map(findingView), summary, pagination: pageOf(total, page) };
}
