import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { openMigratedDatabase } from '../db/database.ts';
import { FEATURE_FLAGS, PLAN_TIERS, VULNDATA_SOURCES } from '../domain/vocabulary.ts';
import { SignUpInput } from '../routers/account/schemas.ts';
import { Uuid } from '../routers/common.ts';
import { FindingExtendInput, FindingStatusInput } from '../routers/findings/schemas.ts';
import { KeyCreateInput, KeyRevokeInput } from '../routers/keys/schemas.ts';
import { applyDutchValidationMessages } from '../routers/locale.ts';
import { SiteCreateInput, SiteGetInput, SiteUpdateInput } from '../routers/sites/schemas.ts';
import { ReviewInput, StaffBlockInput, TenantInput } from '../routers/staff/schemas.ts';
import { InviteInput } from '../routers/team/schemas.ts';
import type { ServiceDeps } from '../services/deps.ts';
import { ConfigError, databaseLocation, loadConfig, type Config } from '../infra/config.ts';
import { backupDatabase } from '../services/backup.ts';
import type { CliIo } from './cli-io.ts';
import { prunable, prune } from '../services/retention.ts';
import { secretBoxFor } from '../infra/secret-encryption.ts';
import * as admin from '../services/admin.ts';
import { reencryptWebhookSecrets } from '../services/webhooks.ts';
import {
  importVulnerabilityFile,
  updateVulnerabilityData,
  vulnerabilityDataStatus,
  VulndataError,
} from '../services/vulnerability-data.ts';

const USAGE = `Usage: npm run -s admin -- <command> [options] [--json]

  tenant create --name N [--plan free|pro|enterprise]
  tenant list
  tenant suspend --id T
  user create --tenant T --email E [--role owner|admin|member] [--staff] [--login]
                          (--login or --staff: a generated password to log in, shown once)
  user list --tenant T
  user block --id U
  key create --user U --name N --permissions p1,p2 [--rate-limit N]
  key revoke --id K
  key list --user U
  site create --tenant T --name N --url URL
  site list --tenant T
  site schedule --site S --every 24h|off   (scheduled scans every 1h to 168h, or off)
  site mail --site S --domain D|off        (the domain of the site's mail test, or off)
  site crawl --site S [--max-pages N] [--include /a/,/b/] [--exclude /c/]
                          (pages per scan, within the plan's cap, and the paths a crawl keeps to or leaves out;
                          an empty --include "" is the whole site)
  site jobs --site S      (latest scheduled runs, with why one was skipped or failed)
  site verify --site S    (checks the tenant's DNS record, file and meta tag now, as POST /verify does)
  site verify --site S --operator --reason R [--until DATE]
                          (vouches for the site as operator: intrusive tests run without the tenant's proof,
                          until DATE when given; audited with who, why and when)
  site unverify --site S  (the site becomes unverified: every claim of its tenant on its host goes; audited)
  tenant token rotate --id T
                          (a new verification token; every claim is checked again before the next intrusive scan)
  tenant audit --id T     (what operators did to the tenant's proof of control: who, why, when)
  suggestion review --id S --status approved|rejected|applied [--notes TEXT]
  finding set-status --id F --status OPEN|IN_PROGRESS|RESOLVED|ACCEPTED_RISK [--reason R]
                          [--owner U --expires ISO]  (ACCEPTED_RISK needs a reason of 10+ characters, an
                          owner in the tenant and an end at most 365 days ahead; another status revokes it)
  finding extend --id F --expires ISO [--reason R] [--owner U]  (a new acceptance with a new end)
  flag set --key K [--enabled true|false] [--rollout N]
  webhook list --tenant T
  webhook enable --id W
  webhook deliveries --id W
  secrets rotate          (re-encrypts webhook secrets and notification channel targets with the first key of SECRETS_KEY)
  prune [--dry-run]       (deletes what SCAN_RETENTION_DAYS, OUTBOX_RETENTION_DAYS and DELIVERY_LOG_RETENTION_DAYS
                          allow now; --dry-run says what would go; the workers do this every hour)
  vulndata status         (each vulnerability data source: date, records, age, stale, complete)
  vulndata update [--source retire|wordfence] [--file PATH [--date ISO]]
                          (fetch now, as the daily job does; or import a file on a machine without internet,
                          dated by its modification time or --date. A bad file is refused and the old data kept)
  mail test --to ADDRESS  (one mail through SMTP_URL, now; prints { message_id } once the relay accepted it)
  backup --out FILE       (a consistent copy of the SQLite database while the service runs; names the
                          secrets key to keep with it. PostgreSQL: pg_dump, see docs/operations.md)`;

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean' },
  name: { type: 'string' },
  plan: { type: 'string' },
  id: { type: 'string' },
  tenant: { type: 'string' },
  email: { type: 'string' },
  user: { type: 'string' },
  permissions: { type: 'string' },
  'rate-limit': { type: 'string' },
  url: { type: 'string' },
  out: { type: 'string' },
  'dry-run': { type: 'boolean' },
  status: { type: 'string' },
  notes: { type: 'string' },
  key: { type: 'string' },
  enabled: { type: 'string' },
  rollout: { type: 'string' },
  site: { type: 'string' },
  role: { type: 'string' },
  staff: { type: 'boolean' },
  login: { type: 'boolean' },
  every: { type: 'string' },
  reason: { type: 'string' },
  owner: { type: 'string' },
  expires: { type: 'string' },
  source: { type: 'string' },
  file: { type: 'string' },
  date: { type: 'string' },
  domain: { type: 'string' },
  operator: { type: 'boolean' },
  until: { type: 'string' },
  'max-pages': { type: 'string' },
  to: { type: 'string' },
  include: { type: 'string' },
  exclude: { type: 'string' },
} as const;

type Values = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

/**
 * An operator command: the routers' zod schema of its input (the API's own rules and bounds), which
 * flag fills each field, and the service it runs as the platform's system actor.
 */
interface Command {
  schema: z.ZodType;
  /** The flag of each input field. */
  flags: Record<string, keyof Values>;
  run: (deps: ServiceDeps, input: unknown, env: CliIo['env']) => Promise<unknown>;
}
const command = <S extends z.ZodType>(
  schema: S,
  flags: Partial<Record<keyof z.input<S> & string, keyof Values>>,
  run: (deps: ServiceDeps, input: z.output<S>, env: CliIo['env']) => Promise<unknown>,
): Command => ({
  schema,
  flags: Object.fromEntries(
    Object.entries(flags).filter((entry): entry is [string, keyof Values] => entry[1] !== undefined),
  ),
  run: (deps, input, env) => run(deps, schema.parse(input), env),
});

const UserId = z.object({ user_id: Uuid });
const SiteScheduleInput = z.object({
  site_id: Uuid,
  scan_interval_hours: SiteUpdateInput.shape.scan_interval_hours.unwrap(),
});
const SiteMailInput = z.object({ site_id: Uuid, mail_domain: SiteUpdateInput.shape.mail_domain.unwrap() });
const SiteCrawlInput = z
  .object({
    site_id: Uuid,
    max_pages: SiteUpdateInput.shape.max_pages,
    include_paths: SiteUpdateInput.shape.include_paths,
    exclude_paths: SiteUpdateInput.shape.exclude_paths,
  })
  .refine((input) => Object.keys(input).length > 1, { message: '--max-pages, --include or --exclude is needed' });
const PlanTier = z.object({ name: SignUpInput.shape.organisation, plan: z.enum(PLAN_TIERS).default('free') });

/** Who runs the command, for the audit trail: the login behind sudo, else the account. */
const operatorName = (env: CliIo['env']) => env.SUDO_USER || env.USER || userInfo().username;

/** Flag text as the field's type: comma lists, numbers, booleans and "24h"/"off" intervals; the schema judges the result. */
function fieldValue(field: string, raw: string | boolean): unknown {
  if (typeof raw === 'boolean') return raw;
  if (field === 'permissions')
    return raw
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
  if (field === 'enabled') return raw === 'true' ? true : raw === 'false' ? false : raw;
  if (field === 'mail_domain') return raw === 'off' ? null : raw;
  if (field === 'include_paths' || field === 'exclude_paths')
    return raw
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
  if (field === 'scan_interval_hours')
    return raw === 'off' ? null : /^\d+h$/.test(raw) ? Number(raw.slice(0, -1)) : raw;
  if (['rate_limit', 'rollout', 'max_pages'].includes(field))
    return raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
  return raw;
}

const COMMANDS: Record<string, Command> = {
  'tenant create': command(PlanTier, { name: 'name', plan: 'plan' }, (deps, input) => admin.createTenant(deps, input)),
  'tenant suspend': command(TenantInput, { tenant_id: 'id' }, (deps, input) => admin.suspend(deps, input)),
  'tenant list': command(z.object({}), {}, (deps) => admin.tenants(deps, {})),
  'user list': command(TenantInput, { tenant_id: 'tenant' }, (deps, input) => admin.usersOfTenant(deps, input)),
  'site list': command(TenantInput, { tenant_id: 'tenant' }, (deps, input) => admin.sitesOfTenant(deps, input)),
  'user create': command(
    z.object({
      tenant_id: Uuid,
      email: InviteInput.shape.email,
      role: InviteInput.shape.role.optional(),
      staff: z.boolean().optional(),
      login: z.boolean().optional(),
    }),
    { tenant_id: 'tenant', email: 'email', role: 'role', staff: 'staff', login: 'login' },
    (deps, input) => admin.createUser(deps, input),
  ),
  'user block': command(StaffBlockInput.pick({ user_id: true }), { user_id: 'id' }, (deps, input) =>
    admin.block(deps, input),
  ),
  'key create': command(
    KeyCreateInput.extend({ user_id: Uuid, rate_limit: KeyCreateInput.shape.rate_limit.optional() }),
    { user_id: 'user', name: 'name', permissions: 'permissions', rate_limit: 'rate-limit' },
    (deps, input) => admin.createKey(deps, input),
  ),
  'key revoke': command(KeyRevokeInput, { key_id: 'id' }, (deps, input) => admin.revokeKey(deps, input)),
  'key list': command(UserId, { user_id: 'user' }, (deps, input) => admin.listKeys(deps, input)),
  'site create': command(
    SiteCreateInput.extend({ tenant_id: Uuid }),
    { tenant_id: 'tenant', name: 'name', url: 'url' },
    (deps, input) => admin.createSite(deps, input),
  ),
  'site schedule': command(SiteScheduleInput, { site_id: 'site', scan_interval_hours: 'every' }, (deps, input) =>
    admin.updateSiteSettings(deps, input),
  ),
  'site mail': command(SiteMailInput, { site_id: 'site', mail_domain: 'domain' }, (deps, input) =>
    admin.updateSiteSettings(deps, input),
  ),
  'site crawl': command(
    SiteCrawlInput,
    { site_id: 'site', max_pages: 'max-pages', include_paths: 'include', exclude_paths: 'exclude' },
    (deps, input) => admin.updateSiteSettings(deps, input),
  ),
  'site jobs': command(SiteGetInput, { site_id: 'site' }, (deps, input) => admin.scanJobsOfSite(deps, input)),
  'site verify': command(
    z
      .object({
        site_id: Uuid,
        operator: z.boolean().default(false),
        reason: z.string().trim().min(3).max(500).optional(),
        until: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
      })
      .refine((input) => !input.operator || input.reason, { message: '--operator needs --reason', path: ['reason'] })
      .refine((input) => input.operator || (!input.reason && !input.until), {
        message: '--reason and --until go with --operator',
        path: ['operator'],
      }),
    { site_id: 'site', operator: 'operator', reason: 'reason', until: 'until' },
    (deps, input, env) =>
      input.operator
        ? admin.vouchForSite(deps, {
            site_id: input.site_id,
            operator: operatorName(env),
            reason: input.reason!,
            until: input.until && new Date(input.until).toISOString(),
          })
        : admin.checkSiteProof(deps, { site_id: input.site_id }),
  ),
  'site unverify': command(SiteGetInput, { site_id: 'site' }, (deps, input, env) =>
    admin.unverifySite(deps, { ...input, operator: operatorName(env) }),
  ),
  'tenant token rotate': command(TenantInput, { tenant_id: 'id' }, (deps, input, env) =>
    admin.rotateTenantToken(deps, { ...input, operator: operatorName(env) }),
  ),
  'tenant audit': command(TenantInput, { tenant_id: 'id' }, (deps, input) => admin.auditTrailOfTenant(deps, input)),
  'suggestion review': command(ReviewInput, { suggestion_id: 'id', status: 'status', notes: 'notes' }, (deps, input) =>
    admin.review(deps, input),
  ),
  'finding set-status': command(
    FindingStatusInput,
    { finding_id: 'id', status: 'status', reason: 'reason', owner_id: 'owner', expires_at: 'expires' },
    (deps, input) => admin.setStatusOfFinding(deps, input),
  ),
  'finding extend': command(
    FindingExtendInput,
    { finding_id: 'id', expires_at: 'expires', reason: 'reason', owner_id: 'owner' },
    (deps, input) => admin.extendAcceptanceOfFinding(deps, input),
  ),
  'flag set': command(
    z.object({
      key: z.enum(FEATURE_FLAGS),
      enabled: z.boolean().optional(),
      rollout: z.number().int().min(0).max(100).optional(),
    }),
    { key: 'key', enabled: 'enabled', rollout: 'rollout' },
    (deps, input) => admin.setFlag(deps, input),
  ),
  'webhook list': command(TenantInput, { tenant_id: 'tenant' }, (deps, input) => admin.webhooksOfTenant(deps, input)),
  'webhook enable': command(z.object({ webhook_id: Uuid }), { webhook_id: 'id' }, (deps, input) =>
    admin.enableWebhook(deps, input),
  ),
  'webhook deliveries': command(z.object({ webhook_id: Uuid }), { webhook_id: 'id' }, (deps, input) =>
    admin.deliveriesOfWebhook(deps, input),
  ),
  prune: command(z.object({ dry_run: z.boolean().default(false) }), { dry_run: 'dry-run' }, async (deps, input) => ({
    dry_run: input.dry_run,
    ...(input.dry_run ? await prunable(deps) : await prune(deps)),
  })),
  'vulndata status': command(z.object({}), {}, (deps) => vulnerabilityDataStatus(deps)),
  'mail test': command(z.object({ to: z.email() }), { to: 'to' }, (deps, input) => admin.sendTestMail(deps, input)),
  'vulndata update': command(
    z
      .object({
        source: z.enum(VULNDATA_SOURCES).optional(),
        file: z.string().min(1).optional(),
        date: z.iso.datetime().optional(),
      })
      .refine((input) => !input.file || input.source, { message: '--file needs --source', path: ['file'] }),
    { source: 'source', file: 'file', date: 'date' },
    async (deps, input) =>
      input.file
        ? [await importVulnerabilityFile(deps, { source: input.source!, file: input.file, date: input.date })]
        : Promise.all(
            (input.source ? [input.source] : VULNDATA_SOURCES).map((source) => updateVulnerabilityData(deps, source)),
          ).then((outcomes) => {
            // A source that could not be fetched is an error for the operator; the old data stays.
            const failed = outcomes.flatMap((o) => (o.outcome === 'failed' ? [o] : []));
            if (failed.length > 0)
              throw new VulndataError(failed.map((o) => `${o.source}: ${o.reason ?? 'failed'}`).join('; '));
            return outcomes;
          }),
  ),
  'secrets rotate': command(z.object({}), {}, async (deps) => ({
    reencrypted: await reencryptWebhookSecrets(deps.db, secretBoxFor(deps.config)),
  })),
};

/** The command's input from its flags, checked by its schema; a refusal names the flags in the operator's terms. */
function inputOf(run: Command, values: Values): unknown {
  const raw: Record<string, unknown> = {};
  for (const [field, flag] of Object.entries(run.flags)) {
    const value = values[flag];
    if (value !== undefined) raw[field] = fieldValue(field, value);
  }
  const parsed = run.schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const flagOf = (path: PropertyKey[]) => `--${run.flags[String(path[0])] ?? String(path[0])}`;
  throw new admin.AdminError(
    parsed.error.issues
      .map((issue) =>
        raw[String(issue.path[0])] === undefined && issue.code === 'invalid_type'
          ? `${flagOf(issue.path)} is required`
          : `${flagOf(issue.path)}: ${issue.message}`,
      )
      .join('; '),
  );
}

/** Commands that work on the database file itself, without a connection of their own. */
const FILE_COMMANDS: Record<string, (v: Values, config: Config) => unknown> = {
  backup: (v, config) => {
    if (!v.out) throw new admin.AdminError('--out is required');
    return backupDatabase(config, v.out);
  },
};

/** One line per object: key=value pairs; a table row per element for lists. */
function readable(result: unknown): string {
  const line = (o: unknown) =>
    Object.entries(o as Record<string, unknown>)
      .map(([k, v]) => `${k}=${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
      .join('  ');
  if (Array.isArray(result)) return result.length ? result.map(line).join('\n') : '(none)';
  return line(result);
}

/**
 * Runs one admin command and returns its exit code: 0 done, 1 failed (message on stderr), 2 wrong
 * usage. In-process, so tests call it directly; `bin/admin.ts` is the command-line wrapper.
 */
export async function runAdmin(args: string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
    const command = positionals.length <= 3 ? positionals.join(' ') : '';
    const run = COMMANDS[command];
    const onFile = FILE_COMMANDS[command];
    if (values.help || (!run && !onFile)) {
      (values.help ? io.stdout : io.stderr).write(
        `${values.help ? '' : `Unknown command "${positionals.join(' ')}".\n`}${USAGE}\n`,
      );
      return values.help ? 0 : 2;
    }
    const config = loadConfig(io.env);
    const write = (result: unknown) => io.stdout.write(`${values.json ? JSON.stringify(result) : readable(result)}\n`);
    if (onFile) {
      write(onFile(values as Values, config));
      return 0;
    }
    applyDutchValidationMessages();
    const input = inputOf(run!, values as Values);
    const db = await openMigratedDatabase(databaseLocation(config));
    try {
      write(await run!.run({ db, config }, input, io.env));
      return 0;
    } finally {
      await db.destroy();
    }
  } catch (error) {
    const known =
      error instanceof admin.AdminError ||
      error instanceof ConfigError ||
      error instanceof VulndataError ||
      String((error as { code?: string }).code).startsWith('ERR_PARSE_ARGS');
    io.stderr.write(`Error: ${known ? (error as Error).message : String(error)}\n`);
    return 1;
  }
}
