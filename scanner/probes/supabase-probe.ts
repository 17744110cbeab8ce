import { firstHeader } from '../net/headers.ts';
import type { HttpClient } from '../net/http-client.ts';
import type { FetchedResponse } from '../net/http-evidence.ts';
import { PERSONAL_COLUMN_PROBES, looksPersonal } from '../rules/personal-data.ts';

/**
 * What an anonymous visitor holding the site's public Supabase key can read, learned with HEAD and
 * `limit=0` requests only: row counts from Content-Range, columns from 200 (exists) or 42703 (does
 * not). No row is ever requested, no write or RPC is ever sent.
 */
export interface SupabaseTableEvidence {
  name: string;
  /** The table's REST URL (without query). */
  url: string;
  /** readable: counted; denied: 401/403 or 42501; missing: 404; unknown: any other answer. */
  access: 'readable' | 'denied' | 'missing' | 'unknown';
  /** Rows an anonymous visitor can read, from Content-Range; null when the server did not count. */
  rows: number | null;
  /** Columns known to exist: from the schema document, the bundle's selects, or a probe. */
  columns: string[];
}

export interface SupabaseEvidence {
  /** The project URL as the client uses it. */
  backend: string;
  keyKind: 'publishable' | 'anon';
  tables: SupabaseTableEvidence[];
  /** A schema document, a counted read or a refusal as PostgREST gives them: this is a Supabase backend. */
  answeredAsPostgrest: boolean;
}

/** Requests one backend may receive from a scan, all probes together. */
export const SUPABASE_REQUEST_BUDGET = 40;
export const MAX_SUPABASE_TABLES = 30;
const SCHEMA_BYTES = 2 * 1024 * 1024;

interface SchemaDocument {
  definitions?: Record<string, { properties?: Record<string, unknown> }>;
  paths?: Record<string, unknown>;
}

const CONTENT_RANGE = /^(?:\d+-\d+|\*)\/(\d+|\*)$/;

/** The total of a Content-Range such as `0-24/3573`, `*\/0` or `0-9/*`: the count, or null. */
export function rowsFromContentRange(value: string | null): number | null {
  const match = value?.trim().match(CONTENT_RANGE);
  if (!match || match[1] === '*') return null;
  return Number(match[1]);
}

/** PostgREST answers every read with a Content-Range; a soft-200 page or another API does not. */
const postgrestRead = (answer: FetchedResponse) =>
  (answer.status === 200 || answer.status === 206) &&
  CONTENT_RANGE.test(firstHeader(answer.headers, 'content-range')?.trim() ?? '');

export async function probeSupabase(
  client: HttpClient,
  backend: string,
  key: { kind: 'publishable' | 'anon'; value: string },
  bundleTables: string[],
  bundleSelects: Record<string, string[]>,
): Promise<SupabaseEvidence> {
  let requests = 0;
  const headers = { apikey: key.value, authorization: `Bearer ${key.value}`, accept: 'application/json' };
  const send = async (
    url: string,
    method: 'GET' | 'HEAD',
    extra: Record<string, string> = {},
    maxBytes = 16 * 1024,
  ) => {
    if (requests >= SUPABASE_REQUEST_BUDGET) return null;
    requests += 1;
    return client.fetch(url, { method, headers: { ...headers, ...extra }, maxBytes });
  };
  const rest = `${backend}/rest/v1`;

  // Self-hosted and older projects still describe their tables to the public key.
  const schemaAnswer = await send(
    `${rest}/`,
    'GET',
    { accept: 'application/openapi+json, application/json' },
    SCHEMA_BYTES,
  );
  let schema: SchemaDocument | null = null;
  if (schemaAnswer?.status === 200) {
    try {
      const parsed = JSON.parse(schemaAnswer.body.toString('utf8')) as SchemaDocument;
      if (parsed && typeof parsed === 'object' && (parsed.definitions || parsed.paths)) schema = parsed;
    } catch {
      // Not PostgREST's document (or cut at the byte cap): the bundle is the source.
    }
  }
  const schemaColumns = (table: string) => Object.keys(schema?.definitions?.[table]?.properties ?? {});
  const schemaTables = Object.keys(schema?.definitions ?? {});
  const names = [...new Set([...bundleTables, ...schemaTables])].slice(0, MAX_SUPABASE_TABLES);

  const tables: SupabaseTableEvidence[] = [];
  const postgrest = () => schema !== null || tables.some((t) => t.access === 'readable' || t.access === 'denied');
  for (const name of names) {
    // A URL that is no PostgREST (the key's neighbour was some other API) gets three tables, not thirty.
    if (tables.length >= 3 && !postgrest()) break;
    const url = `${rest}/${encodeURIComponent(name)}`;
    let answer = await send(`${url}?select=*`, 'HEAD', { prefer: 'count=exact' });
    // A gateway that refuses HEAD still counts a GET for no rows.
    if (answer && (answer.status === 405 || answer.status === 501))
      answer = await send(`${url}?select=*&limit=0`, 'GET', { prefer: 'count=exact' });
    if (!answer) break;
    const status = answer.status;
    const access = postgrestRead(answer)
      ? 'readable'
      : status === 401 || status === 403
        ? 'denied'
        : status === 404
          ? 'missing'
          : 'unknown';
    const rows = access === 'readable' ? rowsFromContentRange(firstHeader(answer.headers, 'content-range')) : null;
    tables.push({
      name,
      url,
      access,
      rows,
      columns: [...new Set([...schemaColumns(name), ...(bundleSelects[name] ?? [])])],
    });
  }

  // Columns are worth learning where rows can be read and the schema document does not list them.
  for (const table of tables) {
    if (table.access !== 'readable' || table.rows === 0 || schema?.definitions?.[table.name]) continue;
    const known = table.columns.filter(looksPersonal);
    table.columns = table.columns.filter((column) => !looksPersonal(column));
    // The bundle's personal columns are confirmed together (one by one if that fails); then every common name is tried.
    const groups = [
      ...(known.length > 0 ? [known] : []),
      ...PERSONAL_COLUMN_PROBES.filter((column) => !known.includes(column)).map((column) => [column]),
    ];
    for (let i = 0; i < groups.length; i += 1) {
      const columns = groups[i]!;
      const answer = await send(`${table.url}?select=${columns.map(encodeURIComponent).join(',')}&limit=0`, 'GET');
      if (!answer) break;
      // 200 (no rows asked) means the columns exist and are readable; 400 (42703, no such column) or 401/403 (42501) mean not.
      if (postgrestRead(answer)) table.columns.push(...columns);
      else if (i === 0 && known.length > 1) groups.splice(1, 0, ...known.map((column) => [column]));
    }
  }
  return { backend, keyKind: key.kind, tables, answeredAsPostgrest: postgrest() };
}
