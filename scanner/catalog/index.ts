import type { Category } from '../vocabulary.ts';
import type { CatalogEntry } from './entry.ts';
import { CLIENT_CODE_CATALOG } from './client-code.ts';
import { COMPONENT_CATALOG } from './components.ts';
import { EXPOSED_ENDPOINT_CATALOG } from './exposed-endpoints.ts';
import { SECURITY_HEADER_CATALOG } from './security-headers.ts';
import { SSL_TLS_CATALOG } from './ssl-tls.ts';

function withCategory<T extends string>(
  category: Category,
  entries: Record<T, Omit<CatalogEntry, 'category'>>,
): Record<T, CatalogEntry> {
  // fromEntries forgets the keys; they are exactly those of `entries`.
  return Object.fromEntries(
    Object.entries<Omit<CatalogEntry, 'category'>>(entries).map(([type, entry]) => [type, { ...entry, category }]),
  ) as Record<T, CatalogEntry>;
}

/** Every finding type the scanner can report, with its Dutch texts. */
export const CATALOG = {
  ...withCategory('SSL_TLS', SSL_TLS_CATALOG),
  ...withCategory('SECURITY_HEADER', SECURITY_HEADER_CATALOG),
  ...withCategory('EXPOSED_ENDPOINT', EXPOSED_ENDPOINT_CATALOG),
  ...withCategory('EXPOSED_ENDPOINT', CLIENT_CODE_CATALOG),
  ...withCategory('EXPOSED_ENDPOINT', COMPONENT_CATALOG),
};

/** The name of a finding type; a misspelled one does not compile. */
export type FindingType = keyof typeof CATALOG;

export const FINDING_TYPES = Object.keys(CATALOG) as FindingType[];
