import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a fixture backend saw: every request, and every row or data value it sent back. */
export interface BackendLog {
  requests: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders }>;
  /** Rows (PostgREST) or database values (Firebase) sent in answer bodies. */
  rowsSent: number;
}

export interface FixtureBackend extends BackendLog {
  url: string;
  close: () => Promise<void>;
}

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

async function serve(
  handle: (req: http.IncomingMessage, url: URL, log: BackendLog) => Answer,
): Promise<FixtureBackend> {
  const log: BackendLog = { requests: [], rowsSent: 0 };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://backend');
    log.requests.push({ method: req.method ?? '', url: `${url.pathname}${url.search}`, headers: req.headers });
    req.resume();
    const answer = handle(req, url, log);
    const body = answer.body === undefined ? '' : JSON.stringify(answer.body);
    res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', ...answer.headers });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(log, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

export type Row = Record<string, unknown>;

/**
 * How a table answers the anon role: `open` shows every row, `rls` has row-level security on with
 * no policy for anon (0 rows), `denied` has no grant for anon (42501).
 */
export interface TableDefinition {
  access: 'open' | 'rls' | 'denied';
  rows: Row[];
}

/** The Swagger 2.0 document PostgREST generates at its root: a path and a definition per table. */
function swagger(tables: Record<string, TableDefinition>) {
  const property = (value: unknown) =>
    typeof value === 'number'
      ? { format: 'bigint', type: 'integer' }
      : typeof value === 'boolean'
        ? { format: 'boolean', type: 'boolean' }
        : { format: 'text', type: 'string' };
  return {
    swagger: '2.0',
    info: { description: '', title: 'standard public schema', version: '12.2.3' },
    host: '0.0.0.0:3000',
    basePath: '/',
    schemes: ['http'],
    consumes: [
      'application/json',
      'application/vnd.pgrst.object+json;nulls=stripped',
      'application/vnd.pgrst.object+json',
      'text/csv',
    ],
    produces: [
      'application/json',
      'application/vnd.pgrst.object+json;nulls=stripped',
      'application/vnd.pgrst.object+json',
      'text/csv',
    ],
    paths: {
      '/': {
        get: {
          produces: ['application/openapi+json', 'application/json'],
          responses: { '200': { description: 'OK' } },
          summary: 'OpenAPI description (this document)',
          tags: ['Introspection'],
        },
      },
      ...Object.fromEntries(Object.keys(tables).map((name) => [`/${name}`, { get: { tags: [name] } }])),
    },
    definitions: Object.fromEntries(
      Object.entries(tables).map(([name, table]) => [
        name,
        {
          required: ['id'],
          properties: Object.fromEntries(
            Object.entries(table.rows[0] ?? {}).map(([column, value]) => [column, property(value)]),
          ),
          type: 'object',
        },
      ]),
    ),
  };
}

const error = (status: number, code: string, message: string, hint: string | null = null) => ({
  status,
  body: { code, details: null, hint, message },
});

/**
 * A PostgREST-compatible stand-in for a Supabase project's /rest/v1, answering as PostgREST 12 does:
 * 401 without a valid apikey, 401 for the schema document (Supabase since April 2026), 42501 for a
 * denied table, 42703 for an unknown column, PGRST205 for an unknown table, counts in Content-Range
 * (also on HEAD), limit and select honoured. Writes are refused and recorded.
 */
export function postgrestBackend(
  publicKey: string,
  tables: Record<string, TableDefinition>,
  options: { schemaDocument?: boolean } = {},
): Promise<FixtureBackend> {
  return serve((req, url, log): Answer => {
    if (req.headers.apikey !== publicKey)
      return {
        status: 401,
        body: { message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' },
      };
    const match = /^\/rest\/v1\/(.*)$/.exec(url.pathname);
    if (!match) return { status: 404, body: { message: 'no Route matched with those values' } };
    if (match[1] === '')
      return options.schemaDocument
        ? { status: 200, headers: { 'content-type': 'application/openapi+json; charset=utf-8' }, body: swagger(tables) }
        : error(401, '42501', 'permission denied for schema public');
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return error(405, 'PGRST117', `Unsupported HTTP method: ${req.method}`);
    const name = decodeURIComponent(match[1]!);
    const table = tables[name];
    if (!table) return error(404, 'PGRST205', `Could not find the table 'public.${name}' in the schema cache`);
    if (table.access === 'denied') return error(401, '42501', `permission denied for table ${name}`);
    const visible = table.access === 'open' ? table.rows : [];
    const columns = (url.searchParams.get('select') ?? '*').split(',').map((c) => c.trim());
    const known = new Set(Object.keys(table.rows[0] ?? {}));
    const unknown = columns.find((c) => c !== '*' && !known.has(c));
    if (unknown) return error(400, '42703', `column ${name}.${unknown} does not exist`);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const limit = url.searchParams.has('limit') ? Number(url.searchParams.get('limit')) : visible.length;
    const page = visible
      .slice(offset, offset + limit)
      .map((row) => (columns.includes('*') ? row : Object.fromEntries(columns.map((c) => [c, row[c]]))));
    const counted = /count=exact/.test(String(req.headers.prefer ?? ''));
    const range = page.length > 0 ? `${offset}-${offset + page.length - 1}` : '*';
    if (req.method === 'GET') log.rowsSent += page.length;
    return { status: 200, headers: { 'content-range': `${range}/${counted ? visible.length : '*'}` }, body: page };
  });
}

/**
 * A Firebase Realtime Database stand-in: `/.json?shallow=true` gives the top-level keys with `true`
 * as values when the rules let anyone read, 401 "Permission denied" when they do not. A read
 * without shallow sends the data and is recorded as rows sent.
 */
export function realtimeDatabase(open: boolean, data: Record<string, unknown>): Promise<FixtureBackend> {
  return serve((_req, url, log) => {
    if (url.pathname !== '/.json') return { status: 404, body: { error: '404 Not Found' } };
    if (!open) return { status: 401, body: { error: 'Permission denied' } };
    if (url.searchParams.get('shallow') === 'true')
      return { status: 200, body: Object.fromEntries(Object.keys(data).map((key) => [key, true])) };
    log.rowsSent += Object.keys(data).length;
    return { status: 200, body: data };
  });
}

/** The Cloud Storage for Firebase list API: `/v0/b/<bucket>/o` lists objects for an open bucket, 403 otherwise. */
export function storageApi(openBuckets: string[]): Promise<FixtureBackend> {
  return serve((_req, url) => {
    const match = /^\/v0\/b\/([^/]+)\/o$/.exec(url.pathname);
    if (!match) return { status: 404, body: { error: { code: 404, message: 'Not Found.' } } };
    const bucket = decodeURIComponent(match[1]!);
    if (!openBuckets.includes(bucket))
      return { status: 403, body: { error: { code: 403, message: 'Permission denied.' } } };
    return { status: 200, body: { prefixes: [], items: [{ name: 'uploads/paspoort.jpg', bucket }] } };
  });
}
