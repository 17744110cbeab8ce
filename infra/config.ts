import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { hostname } from 'node:os';
import { z } from 'zod';

const booleanFlag = z
  .enum(['true', 'false', '1', '0'], { message: 'verwacht true of false' })
  .transform((value) => value === 'true' || value === '1');

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** "500ms", "5s", "5m", "2h" as milliseconds. */
const duration = z
  .string()
  .regex(/^\d+(ms|s|m|h)$/, { message: 'expected a duration such as 500ms, 5s, 5m or 2h' })
  .transform((value) => {
    const [, amount, unit] = /^(\d+)(ms|s|m|h)$/.exec(value)!;
    return Number(amount) * UNIT_MS[unit!]!;
  });

const durationList = z
  .string()
  .transform((value) => value.split(',').map((part) => part.trim()))
  .pipe(z.array(duration).min(1));

/** "ip" or "ip:port" ("[ip6]:port"), comma-separated, as dns.Resolver#setServers takes them. */
const dnsServerList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  )
  .pipe(
    z
      .array(
        z.string().refine(
          (server) => {
            const match = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(server) ??
              /^([^:]+)(?::(\d{1,5}))?$/.exec(server) ?? [server, server, undefined];
            return isIP(match[1]!) !== 0 && (match[2] === undefined || Number(match[2]) <= 65535);
          },
          { message: 'expected name server addresses such as 192.0.2.53 or 192.0.2.53:5353, comma-separated' },
        ),
      )
      .min(1),
  );

const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** The address clients use (https://scanner.example.nl): the MCP server accepts this Host and Origin besides loopback, SARIF links its docs. */
  PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^/\s]+\/?$/, { message: 'expected an origin such as https://scanner.example.nl' })
    .transform((value) => value.replace(/\/$/, ''))
    .optional(),
  DATABASE_PATH: z.string().min(1).default('./data/scanner.db'),
  /** postgres://user:password@host:port/database: PostgreSQL instead of the SQLite file. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { message: 'expected postgres://user:password@host:port/database' })
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SCANNER_ALLOW_PRIVATE_TARGETS: booleanFlag.default(false),
  /** Bound of each request and handshake of a scan. */
  SCANNER_REQUEST_TIMEOUT: duration.prefault('10s'),
  /** Bound of a whole scan; what has not answered by then is reported as not checked. */
  SCANNER_DEADLINE: duration.prefault('60s'),
  /** Name servers the scanner asks (CAA records, and every address the guard checks); empty: the system's. */
  SCANNER_DNS_SERVERS: dnsServerList.optional(),
  /** A name known to be DNSSEC-signed: the resolver must validate it before a site counts as "insecure". */
  SCANNER_DNSSEC_PROBE_NAME: z.string().min(1).max(253).default('internet.nl'),
  /** A Routinator-compatible validator (/api/v1/validity/{asn}/{prefix}); RPKI is not tested without it. */
  SCANNER_RPKI_VALIDATOR_URL: z.url().optional(),
  /** A RIPEstat-compatible prefix-overview URL (?resource=<address>) for the origin AS of an address. */
  SCANNER_RPKI_ORIGIN_URL: z.url().optional(),
  /** Vulnerability data older than this many days gives a warning (status `stale`, dashboard); after 90 days it is no all-clear. */
  VULNDATA_MAX_AGE_DAYS: z.coerce.number().int().min(1).max(90).default(14),
  /** How often a worker looks whether a source is due (each is fetched at most once a day). */
  VULNDATA_CHECK_INTERVAL: duration.prefault('1h'),
  /** Where the daily job fetches retire.js's repository (with If-None-Match). */
  VULNDATA_RETIRE_URL: z
    .url()
    .default('https://raw.githubusercontent.com/RetireJS/retire.js/master/repository/jsrepository-v5.json'),
  /** Wordfence Intelligence's v3 production feed; fetched only with WORDFENCE_API_KEY. */
  VULNDATA_WORDFENCE_URL: z.url().default('https://www.wordfence.com/api/intelligence/v3/vulnerabilities/production'),
  /** The Wordfence Intelligence API key (free): without it WordPress plugins and themes are never an all-clear. */
  WORDFENCE_API_KEY: z.string().min(1).optional(),
  /** The port name servers are asked on for the IPv6 test: 53 everywhere but an offline lab. */
  SCANNER_NAME_SERVER_PORT: z.coerce.number().int().min(1).max(65_535).default(53),
  SCANNER_WEB_HTTP_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  SCANNER_WEB_HTTPS_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  /** The mail test's SMTP part (connections to port 25 of every MX); off by default: most clouds block port 25. */
  SCANNER_SMTP: booleanFlag.default(false),
  /** A mail server that must greet on port 25 before any MX is tested (the egress self-test); unset: no self-test. */
  SCANNER_SMTP_PROBE_HOST: z
    .string()
    .regex(/^[A-Za-z0-9.-]{1,253}$/, { message: 'verwacht een hostnaam' })
    .optional(),
  /** The name the scanner says EHLO with; by default this machine's host name. */
  SCANNER_SMTP_HELO: z
    .string()
    .regex(/^[A-Za-z0-9.-]{1,253}$/, { message: 'verwacht een hostnaam' })
    .default(hostname()),
  /** How long an MX host's SMTP result is reused, by every tenant. */
  SCANNER_SMTP_CACHE_TTL: duration.prefault('24h'),
  /** Delays before each retry of a failed webhook delivery (the Svix schedule). */
  WEBHOOK_RETRY_SCHEDULE: durationList.prefault('5s,5m,30m,2h,5h,10h,10h'),
  WEBHOOK_POLL_INTERVAL: duration.prefault('1s'),
  WEBHOOK_DISABLE_AFTER: z.coerce.number().int().min(1).default(50),
  /** How long a worker holds a claimed delivery; past it (a killed worker) another worker sends it. */
  WEBHOOK_LEASE: duration.prefault('60s'),
  /** How often a worker looks for due scheduled scans. */
  SCHEDULER_POLL_INTERVAL: duration.prefault('30s'),
  /** Scheduled scans one worker runs at once. */
  SCHEDULER_CONCURRENCY: z.coerce.number().int().min(1).default(2),
  /** Consecutive failed scheduled scans of a site after which scan_failed is sent. */
  SCAN_FAILURE_ALERT_AFTER: z.coerce.number().int().min(1).default(3),
  /** Redis for counters shared by several API instances (rate limits); without it they are per process. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, { message: 'expected redis://host:port or rediss://' })
    .optional(),
  /** Whether `npm start` also runs the background workers; false for API-only instances. */
  WORKERS: booleanFlag.default(true),
  IP_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  TRUST_PROXY: booleanFlag.default(false),
  MAX_ACTIVE_KEYS_PER_USER: z.coerce.number().int().min(1).default(10),
  MAX_ACTIVE_KEYS_PER_TENANT: z.coerce.number().int().min(1).default(50),
  MAX_KEYS_CREATED_PER_USER_PER_DAY: z.coerce.number().int().min(1).default(20),
  MAX_WEBHOOKS_PER_TENANT: z.coerce.number().int().min(1).default(20),
  /** Scans running at once in this process, and per tenant; more answer 429 with Retry-After. */
  MAX_CONCURRENT_SCANS: z.coerce.number().int().min(1).default(32),
  MAX_CONCURRENT_SCANS_PER_TENANT: z.coerce.number().int().min(1).default(20),
  /** Bound of receiving a whole request (headers and body); slower clients get 408. */
  REQUEST_TIMEOUT: duration.prefault('30s'),
  /** Seconds between runs of the monitoring sweeper: accepted risks that end, expiry warnings. */
  RISK_SWEEP_INTERVAL_S: z.coerce.number().int().min(1).max(86_400).default(300),
  /** Days before an accepted risk ends that risk_acceptance_expiring goes out. */
  RISK_EXPIRY_NOTICE_DAYS: z.coerce.number().int().min(0).max(365).default(7),
  /** Days a scan is kept; a site's latest scan and the latest scan of every finding are always kept. */
  SCAN_RETENTION_DAYS: z.coerce.number().int().min(1).default(400),
  /** Days a webhook message whose deliveries are finished is kept, with its deliveries. */
  OUTBOX_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  /** Days a delivery attempt (the delivery log) is kept. */
  DELIVERY_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  /** How long an idle kept-alive connection stays open: above the idle timeouts of load balancers (AWS ALB 60 s). */
  KEEP_ALIVE_TIMEOUT: duration.prefault('72s'),
  /**
   * The mail relay: smtp://user:pass@host:587 (STARTTLS required, except to a loopback relay) or
   * smtps://host:465. No query string: TLS options are the service's, never the URL's.
   */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^?#\s]+$/, {
      message: 'expected smtp://user:password@host:587 or smtps://host:465, without a query string',
    })
    .optional(),
  /** The sender of alerts and digests: an address, or "Name <address>". */
  SMTP_FROM: z.string().min(3).max(320).default('Website Security Scanner <noreply@localhost>'),
  /** The sender of account mail (confirmations, password resets, invites); SMTP_FROM when unset. */
  SMTP_FROM_ACCOUNT: z.string().min(3).max(320).optional(),
  /** Extra CA certificates (PEM file) the relay's certificate may chain to (a private relay, tests). */
  SMTP_CA_FILE: z.string().min(1).optional(),
  /** Delays before each retry of a failed notification (the format of WEBHOOK_RETRY_SCHEDULE). */
  NOTIFY_RETRY_SCHEDULE: durationList.prefault('10s,1m,5m,30m,2h,6h,12h'),
  NOTIFY_POLL_INTERVAL: duration.prefault('1s'),
  /** Telegram's Bot API origin (an offline test points it at a stand-in). */
  NOTIFY_TELEGRAM_API: z
    .url()
    .default('https://api.telegram.org')
    .transform((v) => v.replace(/\/$/, '')),
  /** Messages a channel takes per hour; the rest are folded into one message when room returns. */
  NOTIFY_MAX_PER_HOUR: z.coerce.number().int().min(1).default(60),
  /** Keys that encrypt webhook secrets at rest: base64 of 32 bytes, comma-separated, current first. */
  SECRETS_KEY: z
    .string()
    .refine((value) => value.split(',').every((part) => Buffer.from(part.trim(), 'base64').length === 32), {
      message: 'expected base64 of 32 bytes (openssl rand -base64 32), comma-separated with the current key first',
    })
    .optional(),
});

/** Every setting the service reads from the environment (docs/operations.md documents each once). */
export const CONFIG_SETTINGS = Object.keys(ConfigSchema.shape) as Array<keyof typeof ConfigSchema.shape>;

export type Config = z.infer<typeof ConfigSchema> & { DATABASE_PATH: string };

export class ConfigError extends Error {}

/** Reads and validates the environment; a bad value is one clear line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const defined = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = ConfigSchema.safeParse(defined);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid environment variable ${issue.path.join('.')}: ${issue.message}`);
  }
  // Secrets are encrypted with a key every instance must share; with SQLite it can live beside the
  // file, with PostgreSQL there is no such place.
  if (parsed.data.DATABASE_URL && !parsed.data.SECRETS_KEY) {
    throw new ConfigError(
      'Invalid environment variable SECRETS_KEY: required with DATABASE_URL, so every instance encrypts webhook secrets with the same key (openssl rand -base64 32)',
    );
  }
  // Every link in a notification is built from PUBLIC_URL, never from a request's Host.
  if (parsed.data.SMTP_URL && !parsed.data.PUBLIC_URL) {
    throw new ConfigError(
      'Invalid environment variable PUBLIC_URL: required with SMTP_URL, so the links in mail point at the service (https://scanner.example.nl)',
    );
  }
  return {
    ...parsed.data,
    DATABASE_PATH: parsed.data.DATABASE_PATH === ':memory:' ? ':memory:' : resolve(parsed.data.DATABASE_PATH),
  };
}

/** Where the data lives: the PostgreSQL URL when set, otherwise the SQLite file. */
export function databaseLocation(config: Pick<Config, 'DATABASE_URL' | 'DATABASE_PATH'>): string {
  return config.DATABASE_URL ?? config.DATABASE_PATH;
}
