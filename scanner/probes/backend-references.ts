import { decodeJwtPayload, JWT_PATTERN } from '../secrets/jwt.ts';

/**
 * What client code reveals about the backends it talks to, read from its text without running it:
 * the Supabase client's public key, project URL, tables and selected columns, and Firebase configs.
 */
export interface SupabaseKey {
  /** `publishable` is the 2025 sb_publishable_ key; `anon` the legacy JWT (iss supabase, role anon). */
  kind: 'publishable' | 'anon';
  /** Public by design: browsers send it with every request. Used to read as a visitor, never stored. */
  value: string;
  /** The project ref claim of a legacy key. */
  ref: string | null;
  /** Base URLs the key stands next to in the code, nearest first. */
  nearbyUrls: string[];
}

export interface BackendReferences {
  supabaseKeys: SupabaseKey[];
  /** https://<ref>.supabase.co literals. */
  supabaseUrls: string[];
  /** Table names of `.from("…")` calls. */
  tables: string[];
  /** Columns named in `.from("t").select("…")`, by table. */
  selectedColumns: Record<string, string[]>;
  firebaseDatabaseUrls: string[];
  firebaseStorageBuckets: string[];
}

const PUBLISHABLE_KEY = /\bsb_publishable_[0-9A-Za-z_-]{20,}/g;
const SUPABASE_URL = /https:\/\/([a-z0-9-]{6,63})\.supabase\.(?:co|in)\b/g;
const URL_LITERAL = /["'`](https?:\/\/[^"'`\s\\<>]{3,200})["'`]/g;
/** How far from a key a URL literal may stand to count as its project URL (createClient(url, key)). */
const NEARBY_CHARS = 400;
const MAX_NEARBY = 2;
// `.from("x")` of Supabase's query builder; Array.from, Buffer.from and storage.from (buckets) are not tables.
// The receiver is read behind the match: a leading [\w$]* would rescan long identifiers at every position.
const FROM_CALL = /\.\s*from\(\s*(["'`])([A-Za-z_][\w-]{0,62})\1\s*\)/g;
const NOT_TABLE_RECEIVERS = /(Array|Buffer)$|^(Object|Observable|Set|Map|Promise|Iterator|storage)$/;
const SELECT_CALL = /\.from\(\s*(["'`])([A-Za-z_][\w-]{0,62})\1\s*\)\s*\.\s*select\(\s*(["'`])([^"'`]{0,1000})\3/g;
const DATABASE_URL = /["']?databaseURL["']?\s*:\s*["'`](https?:\/\/[^"'`\s\\]{4,200})["'`]/g;
const STORAGE_BUCKET = /["']?storageBucket["']?\s*:\s*["'`]([a-z0-9][a-z0-9._-]{2,220})["'`]/g;

/** A project URL as the client would use it: origin plus any path prefix, without /rest/v1 or a trailing slash. */
export function backendBase(raw: string): string | null {
  try {
    const url = new URL(raw);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    const path = url.pathname.replace(/\/rest\/v1.*$/, '').replace(/\/+$/, '');
    return `${url.origin}${path}`;
  } catch {
    return null;
  }
}

/** Columns of a PostgREST select string: `id, email, name:full_name, phone::text, orders(total)` -> id, email, full_name, phone. */
export function selectColumns(select: string): string[] {
  // Embedded resources (`orders(total)`, `author:users!fk(name)`) are other tables: drop them, innermost first.
  let flat = select;
  for (let previous = ''; previous !== flat; ) [previous, flat] = [flat, flat.replace(/[\w!:-]*\([^()]*\)/g, '')];
  return flat
    .split(',')
    .map((part) =>
      part
        .trim()
        .replace(/^[\w-]+:(?!:)/, '')
        .replace(/::\w+$/, '')
        .replace(/->.*$/, ''),
    )
    .filter((column) => /^[A-Za-z_]\w{0,62}$/.test(column));
}

function nearbyUrls(content: string, at: number, length: number): string[] {
  const start = Math.max(0, at - NEARBY_CHARS);
  const window = content.slice(start, at + length + NEARBY_CHARS);
  const keyAt = at - start;
  const found: Array<{ base: string; distance: number }> = [];
  for (const match of window.matchAll(URL_LITERAL)) {
    const base = backendBase(match[1]!);
    if (!base) continue;
    const distance = match.index < keyAt ? keyAt - match.index : match.index - (keyAt + length);
    found.push({ base, distance });
  }
  return [...new Set(found.sort((a, b) => a.distance - b.distance).map((f) => f.base))].slice(0, MAX_NEARBY);
}

const unique = <T>(values: T[]) => [...new Set(values)];

export function readBackendReferences(content: string): BackendReferences {
  const supabaseKeys: SupabaseKey[] = [];
  for (const match of content.matchAll(PUBLISHABLE_KEY)) {
    supabaseKeys.push({
      kind: 'publishable',
      value: match[0],
      ref: null,
      nearbyUrls: nearbyUrls(content, match.index, match[0].length),
    });
  }
  for (const match of content.matchAll(JWT_PATTERN)) {
    const claims = decodeJwtPayload(match[0]);
    if (claims?.iss !== 'supabase' || claims.role !== 'anon') continue;
    const ref = typeof claims.ref === 'string' && /^[a-z0-9-]{6,63}$/.test(claims.ref) ? claims.ref : null;
    supabaseKeys.push({
      kind: 'anon',
      value: match[0],
      ref,
      nearbyUrls: nearbyUrls(content, match.index, match[0].length),
    });
  }
  const tables: string[] = [];
  for (const match of content.matchAll(FROM_CALL)) {
    const receiver = /[\w$]*\s*$/.exec(content.slice(Math.max(0, match.index - 32), match.index))![0].trim();
    if (!NOT_TABLE_RECEIVERS.test(receiver)) tables.push(match[2]!);
  }
  const selectedColumns: Record<string, string[]> = {};
  for (const match of content.matchAll(SELECT_CALL)) {
    const table = match[2]!;
    selectedColumns[table] = unique([...(selectedColumns[table] ?? []), ...selectColumns(match[4]!)]);
  }
  return {
    supabaseKeys: uniqueBy(supabaseKeys, (key) => key.value),
    supabaseUrls: unique([...content.matchAll(SUPABASE_URL)].map((m) => `https://${m[1]}.supabase.co`)),
    tables: unique(tables),
    selectedColumns,
    firebaseDatabaseUrls: unique(
      [...content.matchAll(DATABASE_URL)].map((m) => backendBase(m[1]!)).filter((u): u is string => u !== null),
    ),
    firebaseStorageBuckets: unique([...content.matchAll(STORAGE_BUCKET)].map((m) => m[1]!)),
  };
}

function uniqueBy<T>(values: T[], key: (value: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const value of values) if (!seen.has(key(value))) seen.set(key(value), value);
  return [...seen.values()];
}
