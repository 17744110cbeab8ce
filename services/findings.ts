import type { z } from 'zod';
import type { FindingGetInput, FindingListInput } from '../routers/findings/schemas.ts';
import { findScan } from '../db/scans.ts';
import { fixesFor } from '../scanner/fixes/index.ts';
import { findFinding, listFindings as listFindingRows, scansOfFinding, type FindingFilters } from '../db/findings.ts';
import { suggestionsNaming } from '../db/suggestions.ts';
import { NotFound } from '../domain/errors.ts';
import { assertPermission, type Actor } from '../domain/actor.ts';
import type { ServiceDeps } from './deps.ts';
import { pageOf } from './pagination.ts';
import { acceptanceOf, findingStatusHistory } from './finding-status.ts';
import { findingView } from './views.ts';

/** The tenant's findings across scans: filtered, searched, most severe first, with a summary. */
export async function searchFindings(deps: ServiceDeps, actor: Actor, input: z.infer<typeof FindingListInput>) {
  assertPermission(actor, 'read_findings');
  const filters: FindingFilters = {
    severity: input.severity,
    category: input.category,
    status: input.status,
    siteId: input.site_id,
    search: input.search,
  };
  const { rows, summary, total } = await listFindingRows(deps.db, actor.tenantId, filters, input);
  return { findings: rows.map(findingView), summary, pagination: pageOf(total, input) };
}

/** Scans listed on a finding's page. */
const SCANS_SHOWN = 20;

/**
 * One finding as its page shows it: the finding, its status history, the scans that saw it and
 * the tenant's suggestions that name it (its id in their title, description or metadata).
 */
export async function findingDetail(deps: ServiceDeps, actor: Actor, input: z.infer<typeof FindingGetInput>) {
  const { history, ...finding } = await getFinding(deps, actor, input);
  const [scans, suggestions] = await Promise.all([
    scansOfFinding(deps.db, actor.tenantId, finding.id, SCANS_SHOWN),
    suggestionsNaming(deps.db, actor.tenantId, finding.id),
  ]);
  return { finding, history, scans, suggestions };
}

/**
 * One finding of the tenant with its fixes (ordered for the server and platform its latest scan
 * saw), the acceptance that counts for it now and its status history, newest first.
 */
export async function getFinding(deps: ServiceDeps, actor: Actor, input: z.infer<typeof FindingGetInput>) {
  assertPermission(actor, 'read_findings');
  const row = await findFinding(deps.db, input.finding_id);
  if (!row || row.tenant_id !== actor.tenantId) throw new NotFound('Bevinding');
  const [scan, acceptance, history] = await Promise.all([
    findScan(deps.db, actor.tenantId, row.scan_id),
    acceptanceOf(deps, row.id),
    findingStatusHistory(deps, actor, { finding_ids: [row.id] }),
  ]);
  const finding = findingView(row);
  return {
    ...finding,
    fixes: fixesFor(
      finding.finding_type,
      scan?.detected_server ?? null,
      scan?.detected_platform ?? null,
      finding.actual_value,
    ),
    acceptance,
    history: history.map(({ finding_id: _finding, ...change }) => change),
  };
}
