import type { HeaderMap } from '../../scanner/types.ts';

/** Builds a HeaderMap from a plain header record (single values or arrays). */
export function toHeaderMap(raw: Record<string, string | string[] | undefined>): HeaderMap {
  const map: HeaderMap = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    const values = Array.isArray(value) ? value : [value];
    map[key] = [...(map[key] ?? []), ...values.map(String)];
  }
  return map;
}
