import type { HeaderMap } from './types.ts';

/** All values of a header (names are stored lowercase). */
export function headerValues(headers: HeaderMap, name: string): string[] {
  return headers[name.toLowerCase()] ?? [];
}

export function firstHeader(headers: HeaderMap, name: string): string | null {
  return headerValues(headers, name)[0] ?? null;
}

/** Builds a HeaderMap from any header object (Node's headersDistinct, plain records, arrays). */
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
