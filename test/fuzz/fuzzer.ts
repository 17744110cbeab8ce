// A request fuzzer driven by the service's own OpenAPI document: every operation is called over REST
// and over /trpc (single and batched), with values that start valid and are then mutated in type,
// size, encoding, structure, method and content type. It counts the statuses; any 5xx is a defect.

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minimum?: number;
  maximum?: number;
  anyOf?: Schema[];
};
interface Parameter {
  name: string;
  in: 'query' | 'path';
  required?: boolean;
  schema: Schema;
}
interface Operation {
  method: string;
  path: string;
  procedure: string;
  kind: 'query' | 'mutation';
  parameters: Parameter[];
  body: Schema | null;
}

/** The parts of an OpenAPI document the fuzzer reads. */
export interface FuzzDocument {
  paths?: Record<string, Record<string, any> | undefined>;
}

export interface FuzzTarget {
  baseUrl: string;
  /** A key with every permission, and a key of another tenant. */
  keys: { own: string; other: string };
  /** Real ids of the own tenant (sites, scans, webhooks), so mutated requests reach deep code. */
  ids: string[];
}

export interface FuzzReport {
  requests: number;
  histogram: Record<string, number>;
  serverErrors: Array<{ request: string; status: number; body: string }>;
  healthMaxMs: number;
  /** The five slowest requests, to find what holds the event loop. */
  slowest: Array<{ request: string; ms: number }>;
}

/** Deterministic PRNG (mulberry32), so a failing run can be replayed from its seed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick, chance: (p: number) => next() < p };
}
type Rng = ReturnType<typeof random>;

/** The operations of the document, each with the tRPC procedure behind it ("scans.list"). */
export function operationsOf(document: FuzzDocument): Operation[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, methods]) =>
    Object.entries(methods ?? {}).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      procedure: String(op.operationId ?? '').replace(/-/g, '.'),
      kind: method === 'get' ? ('query' as const) : ('mutation' as const),
      parameters: (op.parameters ?? []) as Parameter[],
      body: op.requestBody?.content?.['application/json']?.schema ?? null,
    })),
  );
}

const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0000'.repeat(10),
  '\r\n\r\nX-Injected: 1',
  '\ud800',
  '\udfff\ud800',
  '𝕳𝖊𝖑𝖑𝖔 👩‍👩‍👧‍👦',
  '\u202egnp.exe',
  "' OR 1=1 --",
  '"; DROP TABLE scans; --',
  '" OR ""="',
  'NEAR(a b)',
  '* AND OR NOT',
  '%00%ff%',
  '../../../../etc/passwd',
  '{{7*7}}${7*7}<script>alert(1)</script>',
  '1e309',
  '-0',
  'NaN',
  '9'.repeat(400),
  `sak_${'A'.repeat(46)}`,
  'https://[::1]/',
  'https://[::ffff:169.254.169.254]/',
  'http://localhost./',
  'javascript:alert(1)',
  'file:///etc/passwd',
  '2026-02-30T25:61:61Z',
  '0000-00-00',
];

const NASTY_NUMBERS = [0, -1, 1, 1.5, 2 ** 31, 2 ** 53, -(2 ** 63), Number.MAX_VALUE, 1e308, 101, 201, 100_000_000];

function valueFor(schema: Schema | undefined, rng: Rng, ids: string[]): unknown {
  if (!schema) return 'x';
  if (schema.anyOf?.length) return valueFor(rng.pick(schema.anyOf), rng, ids);
  if (schema.enum?.length) return rng.pick(schema.enum);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'integer' || type === 'number') return schema.minimum ?? 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [valueFor(schema.items, rng, ids)];
  if (type === 'object')
    return Object.fromEntries(
      Object.entries(schema.properties ?? {}).map(([name, prop]) => [name, valueFor(prop, rng, ids)]),
    );
  if (schema.format === 'uuid') return rng.pick(ids);
  if (schema.format === 'uri') return 'https://hooks.example.nl/in';
  return 'Een redelijke tekst van genoeg lengte';
}

function deepJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** Replaces a value by something of another type, size or encoding. */
function mutateValue(value: unknown, rng: Rng): unknown {
  switch (rng.int(10)) {
    case 0:
      return rng.pick(NASTY_STRINGS);
    case 1:
      return rng.pick(NASTY_NUMBERS);
    case 2:
      return rng.pick([null, true, false, [], {}, [[[]]], { $gt: '' }, { __proto__: { polluted: 1 } }]);
    case 3:
      return 'x'.repeat(rng.pick([256, 2049, 70_000, 600_000]));
    case 4:
      return [value, value];
    case 5:
      return typeof value === 'string' ? value + rng.pick(NASTY_STRINGS) : String(value);
    case 6:
      return JSON.parse(deepJson(rng.pick([40, 200, 1000])));
    case 7:
      return typeof value === 'number' ? -value : Number.NaN;
    case 8:
      return undefined;
    default:
      return value;
  }
}

function mutateObject(object: Record<string, unknown>, rng: Rng): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...object };
  const keys = Object.keys(copy);
  for (let n = 1 + rng.int(2); n > 0; n--) {
    if (keys.length && rng.chance(0.8)) {
      const key = rng.pick(keys);
      copy[key] = mutateValue(copy[key], rng);
    } else
      copy[rng.pick(['extra', '__proto__', 'constructor', '', 'a'.repeat(300), '\u0000'])] = rng.pick(NASTY_STRINGS);
  }
  return copy;
}

interface Built {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

function authHeader(target: FuzzTarget, rng: Rng): Record<string, string> {
  const roll = rng.int(20);
  if (roll === 0) return {};
  if (roll === 1)
    return {
      authorization: rng.pick([
        'Bearer',
        'Bearer ',
        'Basic Zm9vOmJhcg==',
        `Bearer ${target.keys.own}x`,
        `bearer   ${target.keys.own}`,
        `Bearer ${'sak_'.repeat(500)}`,
      ]),
    };
  if (roll === 2) return { authorization: `Bearer ${target.keys.other}` };
  return { authorization: `Bearer ${target.keys.own}` };
}

/** encodeURIComponent, with lone surrogates sent as the invalid UTF-8 bytes a careless client would send. */
const encode = (text: string) =>
  text
    .split(/([\ud800-\udfff])/)
    .map((part) => (/^[\ud800-\udfff]$/.test(part) ? '%ED%A0%80' : encodeURIComponent(part)))
    .join('');

function encodeQuery(params: Record<string, unknown>, rng: Rng): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
    parts.push(`${encode(name)}=${rng.chance(0.05) ? text.replace(/[^A-Za-z0-9]/g, '%') : encode(text)}`);
    if (rng.chance(0.05)) parts.push(`${encode(name)}=${encode(text)}`);
  }
  if (rng.chance(0.05)) parts.push(rng.pick(['%', '%zz', '&&&', '=', 'a[b]=c', 'limit[]=1']));
  return parts.length ? `?${parts.join('&')}` : '';
}

function jsonBody(value: unknown, rng: Rng): { body: string | Uint8Array; type: string | undefined } {
  const type =
    rng.int(14) === 0
      ? rng.pick([
          undefined,
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/xml',
          'multipart/form-data; boundary=x',
          'application/json; charset=latin1',
          'application/json;;;',
          'APPLICATION/JSON',
        ])
      : 'application/json';
  const roll = rng.int(16);
  if (roll === 0) return { body: rng.pick(['', '{', '{"a":', 'null', '[]', '"x"', '1', '{"a":1}}', '\u0000']), type };
  if (roll === 1) return { body: deepJson(rng.pick([100, 5_000, 20_000])), type };
  if (roll === 2) return { body: new Uint8Array([0xff, 0xfe, 0x00, 0x7b]), type };
  return { body: JSON.stringify(value ?? null), type };
}

/** One request: valid at first, then mutated. */
export function buildRequest(operation: Operation, target: FuzzTarget, rng: Rng): Built {
  const headers = authHeader(target, rng);
  const mutate = rng.chance(0.85);
  let method = operation.method;
  if (rng.chance(0.03)) method = rng.pick(['PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'GET', 'POST']);
  if (rng.chance(0.5)) {
    // REST
    let path = operation.path;
    const query: Record<string, unknown> = {};
    for (const parameter of operation.parameters) {
      let value = parameter.required || rng.chance(0.5) ? valueFor(parameter.schema, rng, target.ids) : undefined;
      if (mutate && rng.chance(0.4)) value = mutateValue(value, rng);
      if (parameter.in === 'path')
        path = path.replace(`{${parameter.name}}`, encode(String(value ?? '')) || rng.pick(['%2F', '..', '%00', '']));
      else query[parameter.name] = value;
    }
    const built: Built = { method, url: path + encodeQuery(query, rng), headers };
    if (operation.body || rng.chance(0.05)) {
      let value = valueFor(operation.body ?? undefined, rng, target.ids);
      if (mutate && value && typeof value === 'object' && !Array.isArray(value))
        value = mutateObject(value as Record<string, unknown>, rng);
      else if (mutate) value = mutateValue(value, rng);
      const { body, type } = jsonBody(value, rng);
      built.body = body;
      if (type) built.headers['content-type'] = type;
    }
    return built;
  }
  // /trpc, single or batched
  const input = () => {
    let value: Record<string, unknown> = Object.fromEntries(
      operation.parameters.map((p) => [p.name, valueFor(p.schema, rng, target.ids)]),
    );
    if (operation.body) value = { ...value, ...(valueFor(operation.body, rng, target.ids) as Record<string, unknown>) };
    return mutate ? mutateObject(value, rng) : value;
  };
  const batch = rng.chance(0.2) ? 1 + rng.int(6) : 0;
  const names = batch ? Array.from({ length: batch }, () => operation.procedure) : [operation.procedure];
  const payload = batch ? Object.fromEntries(names.map((_, i) => [i, input()])) : input();
  const path = `/trpc/${rng.chance(0.03) ? rng.pick(['nope', 'scans', 'scans.list.x', '%00', names.join(',,')]) : names.join(',')}`;
  if (operation.kind === 'query' && method === 'GET') {
    const encoded = rng.chance(0.05) ? rng.pick(['%7B', '{', 'null', deepJson(3000)]) : encode(JSON.stringify(payload));
    return { method, url: `${path}?${batch ? 'batch=1&' : ''}input=${encoded}`, headers };
  }
  const { body, type } = jsonBody(payload, rng);
  return {
    method: method === 'GET' ? 'POST' : method,
    url: `${path}${batch ? '?batch=1' : ''}`,
    headers: { ...headers, ...(type ? { 'content-type': type } : {}) },
    body,
  };
}

export async function fuzz(
  target: FuzzTarget,
  document: FuzzDocument,
  options: { requests: number; concurrency: number; seed: number; onProgress?: (done: number) => void },
): Promise<FuzzReport> {
  const rng = random(options.seed);
  const operations = operationsOf(document);
  const report: FuzzReport = { requests: 0, histogram: {}, serverErrors: [], healthMaxMs: 0, slowest: [] };
  let healthy = true;
  const health = setInterval(async () => {
    const started = performance.now();
    const ok = await fetch(`${target.baseUrl}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    report.healthMaxMs = Math.max(report.healthMaxMs, performance.now() - started);
    healthy &&= ok;
  }, 250);
  let next = 0;
  const worker = async () => {
    while (next < options.requests) {
      next += 1;
      const request = buildRequest(rng.pick(operations), target, rng);
      let status: number;
      let text = '';
      const started = performance.now();
      try {
        const response = await fetch(`${target.baseUrl}${request.url}`, {
          method: request.method,
          headers: request.headers,
          body: request.method === 'GET' || request.method === 'HEAD' ? undefined : request.body,
        });
        status = response.status;
        text = await response.text();
      } catch (error) {
        status = 0;
        text = String(error);
      }
      report.requests += 1;
      const ms = performance.now() - started;
      if (report.slowest.length < 5 || ms > report.slowest[4]!.ms) {
        report.slowest = [
          ...report.slowest,
          { request: `${request.method} ${request.url.slice(0, 160)} (${request.body?.length ?? 0} bytes)`, ms },
        ]
          .sort((a, b) => b.ms - a.ms)
          .slice(0, 5);
      }
      const bucket = status === 0 ? 'network error' : String(status);
      report.histogram[bucket] = (report.histogram[bucket] ?? 0) + 1;
      if ((status >= 500 || status === 0) && report.serverErrors.length < 20)
        report.serverErrors.push({
          request: `${request.method} ${request.url.slice(0, 300)}`,
          status,
          body: text.slice(0, 300),
        });
      if (report.requests % 1000 === 0) options.onProgress?.(report.requests);
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
  } finally {
    clearInterval(health);
  }
  if (!healthy)
    report.serverErrors.push({ request: 'GET /healthz', status: 0, body: 'health check failed during the run' });
  return report;
}
