import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertPermission, type Actor } from '../domain/actor.ts';
import type { ServiceDeps } from './deps.ts';
import { vulnerabilityDataStatus } from './vulnerability-data.ts';
import { API_PATHS } from '../domain/endpoints.ts';
import type { Config } from '../infra/config.ts';
import { listFeatureFlags, listPlans, serviceStats } from '../db/plans-and-flags.ts';
import {
  API_VERSION,
  CATEGORIES,
  DEFAULT_RATE_LIMIT,
  GRADES,
  PERMISSIONS,
  SITE_PLATFORMS,
  SCAN_TRIGGERS,
  SEVERITIES,
  WEBHOOK_EVENTS,
} from '../domain/vocabulary.ts';

/**
 * Where the service's API docs are, for links that leave the service (a SARIF log's informationUri):
 * at the origin the client used when there is one, else PUBLIC_URL, else the address it listens on.
 */
export function docsUrlOf(config: Pick<Config, 'PUBLIC_URL' | 'HOST' | 'PORT'>, clientOrigin?: string): string {
  const origin = clientOrigin ?? config.PUBLIC_URL ?? `http://${config.HOST}:${config.PORT}`;
  return `${origin.replace(/\/$/, '')}${API_PATHS.docs}`;
}

/** The project's package.json, found from this module whether it runs from source or from dist/. */
function packageJson(): { version: string } {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) return JSON.parse(readFileSync(candidate, 'utf8'));
    if (dirname(dir) === dir) throw new Error('package.json not found');
  }
}

const pkg = packageJson();

export const SERVICE_VERSION = pkg.version;
export const SERVICE_NAME = 'Website Security Scanner';

/** The platform configuration of docs/spec.md 2.7; contains nothing sensitive. */
export async function serviceConfiguration(deps: ServiceDeps, actor: Actor) {
  assertPermission(actor, 'read_config');
  const { db } = deps;
  const [stats, plans, flags, vulnerabilityData] = await Promise.all([
    serviceStats(db),
    listPlans(db),
    listFeatureFlags(db),
    vulnerabilityDataStatus(deps),
  ]);
  return {
    platform: {
      name: SERVICE_NAME,
      version: SERVICE_VERSION,
      description:
        'Beveiligingsscans van websites (SSL/TLS, beveiligingsheaders, blootgestelde endpoints) met een API voor agents.',
    },
    stats: {
      ...stats,
      platforms: Object.fromEntries(SITE_PLATFORMS.map((p) => [p, stats.platforms[p] ?? 0])) as Record<
        (typeof SITE_PLATFORMS)[number],
        number
      >,
    },
    plans: plans.map((p) => ({ ...p, features: JSON.parse(p.features) as string[] })),
    feature_flags: flags.map((f) => ({ ...f, enabled: f.enabled === 1 })),
    scanner: {
      categories: [...CATEGORIES],
      severity_levels: [...SEVERITIES],
      grades: [...GRADES],
      supported_platforms: [...SITE_PLATFORMS],
      vulnerability_data: vulnerabilityData.map(({ stored: _stored, ...shown }) => shown),
    },
    api: {
      version: API_VERSION,
      rate_limit_default: DEFAULT_RATE_LIMIT,
      permissions: [...PERMISSIONS],
      webhook_events: [...WEBHOOK_EVENTS],
      scan_triggers: [...SCAN_TRIGGERS],
    },
  };
}
