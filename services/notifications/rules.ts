import type { z } from 'zod';
import { uuidv7 } from '../../db/ids.ts';
import {
  channelsOfTenant,
  deleteRule as deleteRuleRow,
  findRule,
  insertRule,
  rulesOfTenant,
  updateRule,
  type RuleRow,
} from '../../db/notifications.ts';
import { assertPermission, type Actor } from '../../domain/actor.ts';
import { Invalid, NotFound } from '../../domain/errors.ts';
import type { RuleCreateInput, RuleUpdateInput } from '../../routers/notifications/schemas.ts';
import { isoNow, type ServiceDeps } from '../deps.ts';
import { isZone } from './zoned-time.ts';

type RuleInput = z.infer<typeof RuleCreateInput>;

export function ruleView(row: RuleRow) {
  const json = <T>(text: string | null) => (text === null ? null : (JSON.parse(text) as T));
  return {
    id: row.id,
    name: row.name,
    site_ids: json<string[]>(row.site_ids),
    min_severity: row.min_severity,
    events: json<RuleInput['events']>(row.events)!,
    mode: row.mode,
    at: json<RuleInput['at']>(row.at),
    channel_ids: json<string[]>(row.channel_ids)!,
    roles: json<RuleInput['roles']>(row.roles)!,
    quiet_hours: json<RuleInput['quiet_hours']>(row.quiet_hours),
    critical_bypasses_quiet: row.critical_bypasses_quiet === 1,
    rest: json<RuleInput['rest']>(row.rest),
    created_at: row.created_at,
  };
}

/** A rule's fields as stored, judged first: its channels the tenant's own, a digest with its hour, zones the runtime knows. */
async function storedFields(deps: ServiceDeps, tenantId: string, rule: Partial<RuleInput>) {
  if (rule.channel_ids?.length) {
    const own = new Set((await channelsOfTenant(deps.db, tenantId)).map((c) => c.id));
    const foreign = rule.channel_ids.find((id) => !own.has(id));
    if (foreign) throw new Invalid(`channel_ids: kanaal ${foreign} bestaat niet.`);
  }
  if (rule.mode && rule.mode !== 'immediate' && !rule.at)
    throw new Invalid('at: een overzicht heeft een uur ({ hour }).');
  for (const zone of [rule.quiet_hours?.zone, rule.at?.zone, rule.rest?.at.zone])
    if (zone && !isZone(zone)) throw new Invalid(`zone: ${zone.slice(0, 64)} is geen bekende IANA-tijdzone.`);
  const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
  return {
    ...(rule.name !== undefined ? { name: rule.name } : {}),
    ...(rule.site_ids !== undefined ? { site_ids: json(rule.site_ids) } : {}),
    ...(rule.min_severity !== undefined ? { min_severity: rule.min_severity } : {}),
    ...(rule.events !== undefined ? { events: JSON.stringify([...new Set(rule.events)]) } : {}),
    ...(rule.mode !== undefined ? { mode: rule.mode } : {}),
    ...(rule.at !== undefined ? { at: json(rule.at) } : {}),
    ...(rule.channel_ids !== undefined ? { channel_ids: JSON.stringify([...new Set(rule.channel_ids)]) } : {}),
    ...(rule.roles !== undefined ? { roles: JSON.stringify([...new Set(rule.roles)]) } : {}),
    ...(rule.quiet_hours !== undefined ? { quiet_hours: json(rule.quiet_hours) } : {}),
    ...(rule.critical_bypasses_quiet !== undefined
      ? { critical_bypasses_quiet: rule.critical_bypasses_quiet ? 1 : 0 }
      : {}),
    ...(rule.rest !== undefined ? { rest: json(rule.rest) } : {}),
  };
}

export async function createRule(deps: ServiceDeps, actor: Actor, input: RuleInput) {
  assertPermission(actor, 'write_config');
  const fields = await storedFields(deps, actor.tenantId, input);
  const now = isoNow(deps);
  const row = {
    id: uuidv7(),
    tenant_id: actor.tenantId,
    name: input.name,
    site_ids: null,
    min_severity: input.min_severity,
    events: '[]',
    mode: input.mode,
    at: null,
    rest: null,
    channel_ids: '[]',
    roles: '[]',
    quiet_hours: null,
    critical_bypasses_quiet: 1,
    // A digest starts from now: nothing before the rule existed is gathered.
    last_digest_at: now,
    last_rest_digest_at: now,
    created_at: now,
    ...fields,
  };
  await insertRule(deps.db, row);
  return ruleView(row);
}

export async function listRules(deps: ServiceDeps, actor: Actor) {
  assertPermission(actor, 'read_config');
  return (await rulesOfTenant(deps.db, actor.tenantId)).map(ruleView);
}

export async function changeRule(deps: ServiceDeps, actor: Actor, input: z.infer<typeof RuleUpdateInput>) {
  assertPermission(actor, 'write_config');
  const row = await findRule(deps.db, actor.tenantId, input.rule_id);
  if (!row) throw new NotFound('Regel');
  const { rule_id: _id, ...changes } = input;
  const merged = { ...ruleView(row), ...changes } as RuleInput;
  await storedFields(deps, actor.tenantId, merged);
  await updateRule(deps.db, row.id, await storedFields(deps, actor.tenantId, changes as Partial<RuleInput>));
  return ruleView((await findRule(deps.db, actor.tenantId, row.id))!);
}

export async function removeRule(deps: ServiceDeps, actor: Actor, input: { rule_id: string }) {
  assertPermission(actor, 'write_config');
  if (!(await deleteRuleRow(deps.db, actor.tenantId, input.rule_id))) throw new NotFound('Regel');
}
