import { parseHsts } from '../rules/hsts.ts';
import type { HeaderMap } from './http-evidence.ts';

/** All values of a header (names are stored lowercase). */
export function headerValues(headers: HeaderMap, name: string): string[] {
  return headers[name.toLowerCase()] ?? [];
}

export function firstHeader(headers: HeaderMap, name: string): string | null {
  return headerValues(headers, name)[0] ?? null;
}

/** Builds a HeaderMap from Node's rawHeaders (name, value, name, value...), keeping every repeat. */
export function headersFromRaw(raw: string[]): HeaderMap {
  const map: HeaderMap = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const values = map[name] ?? [];
    values.push(raw[i + 1]!);
    map[name] = values;
  }
  return map;
}

/** The max-age of the first Strict-Transport-Security header; null without a valid one. */
export function hstsMaxAgeOf(headers: HeaderMap | undefined): number | null {
  const value = headers ? firstHeader(headers, 'strict-transport-security') : null;
  return value === null ? null : (parseHsts(value)?.maxAge ?? null);
}
