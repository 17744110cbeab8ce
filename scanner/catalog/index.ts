import type { CatalogEntry, Observation, ScanFinding } from '../types.ts';
import type { Category } from '../vocabulary.ts';
import { EXPOSED_ENDPOINT_CATALOG } from './exposed-endpoints.ts';
import { SECURITY_HEADER_CATALOG } from './security-headers.ts';
import { SSL_TLS_CATALOG } from './ssl-tls.ts';

function withCategory(category: Category, entries: Record<string, Omit<CatalogEntry, 'category'>>): Record<string, CatalogEntry> {
  return Object.fromEntries(Object.entries(entries).map(([type, entry]) => [type, { ...entry, category }]));
}

/** Every finding type the scanner can report, with its Dutch texts. */
export const CATALOG: Record<string, CatalogEntry> = {
  ...withCategory('SSL_TLS', SSL_TLS_CATALOG),
  ...withCategory('SECURITY_HEADER', SECURITY_HEADER_CATALOG),
  ...withCategory('EXPOSED_ENDPOINT', EXPOSED_ENDPOINT_CATALOG),
};

export function toFinding(observation: Observation): ScanFinding {
  const entry = CATALOG[observation.type];
  if (!entry) throw new Error(`finding type ${observation.type} has no catalog entry`);
  const { observatory: _observatory, ...texts } = entry;
  return { finding_type: observation.type, ...texts, endpoint: observation.endpoint, actual_value: observation.actual_value };
}
