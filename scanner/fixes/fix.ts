import type { FindingType } from '../catalog/index.ts';
import { SITE_PLATFORMS, WEB_SERVERS } from '../vocabulary.ts';

/** Targets that are not a server or a site platform: they come last, for every site. */
export const COMMON_TARGETS = ['supabase', 'dns', 'certificate', 'security_txt'] as const;

/** Where a fix is applied: a web server, a site platform, or what no configuration file holds (DNS, certificates, files). */
export const FIX_TARGETS = [...WEB_SERVERS, ...SITE_PLATFORMS, ...COMMON_TARGETS] as const;
export type FixTarget = (typeof FIX_TARGETS)[number];

export interface Fix {
  target: FixTarget;
  title: string;
  /** The snippet's language: nginx, apache, caddyfile, javascript, json, text, php, sql, dns, shell. */
  language: string;
  snippet: string;
  /** Where the snippet goes: `server` or `http` (nginx), `virtualhost` or `server` (Apache's main configuration). */
  context?: string;
  notes?: string;
}

export type FixEntry = Omit<Fix, 'target'>;
/** One target's fixes by the finding types they fix. */
export type FixTable = Partial<Record<FindingType, FixEntry>>;

/** The same entry for several finding types (one TLS configuration fixes every TLS finding). */
export function forEach(types: readonly FindingType[], entry: FixEntry): FixTable {
  return Object.fromEntries(types.map((type) => [type, entry]));
}
