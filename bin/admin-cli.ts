import { parseArgs } from 'node:util';
import { openMigratedDatabase, type DB } from '../db/database.ts';
import { ConfigError, databaseLocation, loadConfig, type Config } from '../services/config.ts';
import { backupDatabase } from '../services/backup.ts';
import type { CliIo } from './cli-io.ts';
import { prunable, prune } from '../services/retention.ts';
import { secretBoxFor } from '../services/secret-encryption.ts';
import * as admin from '../services/admin.ts';
import { keyCaps } from '../services/key-issuance.ts';
import { reencryptWebhookSecrets } from '../services/webhooks.ts';

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
  site jobs --site S      (latest scheduled runs, with why one was skipped or failed)
  suggestion review --id S --status approved|rejected|applied [--notes TEXT]
  finding set-status --id F --status OPEN|IN_PROGRESS|RESOLVED|ACCEPTED_RISK [--reason R] (ACCEPTED_RISK needs a reason)
  flag set --key K [--enabled true|false] [--rollout N]
  webhook list --tenant T
  webhook enable --id W
  webhook deliveries --id W
  secrets rotate          (re-encrypts webhook secrets with the first key of SECRETS_KEY)
  prune [--dry-run]       (deletes what SCAN_RETENTION_DAYS, OUTBOX_RETENTION_DAYS and DELIVERY_LOG_RETENTION_DAYS
                          allow now; --dry-run says what would go; the workers do this every hour)
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
} as const;

type Values = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

function required(values: Values, name: keyof Values): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new admin.AdminError(`--${name} is required`);
  return value;
}

const COMMANDS: Record<string, (db: DB, v: Values, config: Config) => Promise<unknown>> = {
  'tenant create': (db, v) => admin.createTenant(db, required(v, 'name'), v.plan),
  'tenant suspend': (db, v) => admin.suspend(db, required(v, 'id')),
  'tenant list': (db) => admin.tenants(db),
  'user list': (db, v) => admin.usersOfTenant(db, required(v, 'tenant')),
  'site list': (db, v) => admin.sitesOfTenant(db, required(v, 'tenant')),
  'user create': (db, v) => admin.createUser(db, required(v, 'tenant'), required(v, 'email'), { role: v.role, staff: v.staff, login: v.login }),
  'user block': (db, v) => admin.block(db, required(v, 'id')),
  'key create': (db, v, config) =>
    admin.createKey(db, {
      userId: required(v, 'user'),
      name: required(v, 'name'),
      permissions: required(v, 'permissions').split(',').map((p) => p.trim()).filter(Boolean),
      rateLimit: v['rate-limit'] === undefined ? undefined : Number(v['rate-limit']),
    }, keyCaps(config)),
  'key revoke': (db, v) => admin.revokeKey(db, required(v, 'id')),
  'key list': (db, v) => admin.listKeys(db, required(v, 'user')),
  'site create': (db, v) => admin.createSite(db, required(v, 'tenant'), required(v, 'name'), required(v, 'url')),
  'site schedule': (db, v, config) => admin.scheduleSite({ db, config }, required(v, 'site'), required(v, 'every')),
  'site jobs': (db, v) => admin.scanJobsOfSite(db, required(v, 'site')),
  'suggestion review': (db, v) => admin.review(db, required(v, 'id'), required(v, 'status'), v.notes),
  'finding set-status': (db, v) => admin.setStatusOfFinding(db, required(v, 'id'), required(v, 'status'), v.reason),
  'flag set': (db, v) => admin.setFlag(db, required(v, 'key'), v.enabled, v.rollout),
  'webhook list': (db, v) => admin.webhooksOfTenant(db, required(v, 'tenant')),
  'webhook enable': (db, v) => admin.enableWebhook(db, required(v, 'id')),
  'webhook deliveries': (db, v) => admin.deliveriesOfWebhook(db, required(v, 'id')),
  prune: async (db, v, config) => {
    const counts = v['dry-run'] ? await prunable({ db, config }) : await prune({ db, config });
    return { dry_run: Boolean(v['dry-run']), ...counts };
  },
  'secrets rotate': async (db, _v, config) => ({ reencrypted: await reencryptWebhookSecrets(db, secretBoxFor(config)) }),
};

/** Commands that work on the database file itself, without a connection of their own. */
const FILE_COMMANDS: Record<string, (v: Values, config: Config) => unknown> = {
  backup: (v, config) => backupDatabase(config, required(v, 'out')),
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
    const command = positionals.length <= 2 ? positionals.join(' ') : '';
    const run = COMMANDS[command];
    const onFile = FILE_COMMANDS[command];
    if (values.help || (!run && !onFile)) {
      (values.help ? io.stdout : io.stderr).write(`${values.help ? '' : `Unknown command "${positionals.join(' ')}".\n`}${USAGE}\n`);
      return values.help ? 0 : 2;
    }
    const config = loadConfig(io.env);
    const write = (result: unknown) => io.stdout.write(`${values.json ? JSON.stringify(result) : readable(result)}\n`);
    if (onFile) {
      write(onFile(values as Values, config));
      return 0;
    }
    const db = await openMigratedDatabase(databaseLocation(config));
    try {
      write(await run!(db, values as Values, config));
      return 0;
    } finally {
      await db.destroy();
    }
  } catch (error) {
    const known = error instanceof admin.AdminError || error instanceof ConfigError || String((error as { code?: string }).code).startsWith('ERR_PARSE_ARGS');
    io.stderr.write(`Error: ${known ? (error as Error).message : String(error)}\n`);
    return 1;
  }
}
