/**
 * The other scripts a script can make the browser load, read from its text without running it:
 * - relative `import`/`import()` of ES modules, with any quote (Vite 8 writes ``import(`./x.js`)``);
 * - Vite's preload dependency list (`__vite__mapDeps`: `m.f=["assets/x.js", …]`, relative to the base);
 * - webpack's chunk URL function (`__webpack_require__.u = id => "static/chunks/" + id + "." + {id:hash}[id] + ".js"`)
 *   with its public path (`.p = "/_next/"`);
 * - Next.js chunk paths (`static/chunks/….js`) in the pages router's build manifest and in the app
 *   router's flight data (`self.__next_f`, and the RSC payload of other routes).
 * Pure functions: the caller decides what to fetch.
 */

const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)(["'`])(\.{1,2}\/[^"'`\s$\\]{1,300}?\.m?js)\1/g;
const VITE_DEPS = /\.f\s*=\s*\[([^[\]]{0,65536})\]/g;
const STRING_LITERAL = /(["'`])([^"'`\\]{1,300})\1/g;
const NEXT_CHUNK = /(?:\/_next\/)?static\/chunks\/[\w/[\]().@%~+=-]{1,300}?\.js(?![\w.])/g;
/** webpack's chunk filename function, as webpack 5 emits it minified or not (`x.u=e=>…` or `x.u=function(e){return …}`). */
const WEBPACK_CHUNK_FUNCTION =
  /\.u\s*=\s*(?:function\s*\(\s*([\w$]{1,20})\s*\)\s*\{\s*return\s*|\(?\s*([\w$]{1,20})\s*\)?\s*=>\s*)/g;
const WEBPACK_PUBLIC_PATH = /\.p\s*=\s*(["'])([^"'\s]{0,200})\1/;
const MAX_CHUNK_IDS = 300;

/** An http(s) URL of a path against a base, or null for anything a browser would not fetch. */
export function httpUrl(path: string, base: string): string | null {
  try {
    const url = new URL(path, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

const isScript = (path: string) => /\.m?js(?:\?|$)/.test(path);

/** Vite's deps are relative to the app's base: the script's path up to the deps' first folder (`/app/` for `/app/assets/x.js`). */
function viteBase(dep: string, scriptUrl: string): string {
  const url = new URL(scriptUrl);
  const folder = dep.split('/')[0];
  const at = folder ? url.pathname.lastIndexOf(`/${folder}/`) : -1;
  return `${url.origin}${at >= 0 ? url.pathname.slice(0, at + 1) : '/'}`;
}

/** The entries of an object literal `{12:"a1b2",abc:"x",'d-e':"y"}` whose values are strings. */
function objectEntries(literal: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const match of literal.matchAll(
    /(?:^|[{,])\s*(?:(\d{1,12})|(["'])([^"'\\]{1,200})\2|([\w$]{1,100}))\s*:\s*(["'])([^"'\\]{0,300})\5/g,
  )) {
    entries.set(match[1] ?? match[3] ?? match[4]!, match[6]!);
  }
  return entries;
}

/** webpack's chunk filename function: string literals, the chunk id, and `{…}[id]` lookups (`orId`: `({…}[id]||id)`). */
export interface WebpackChunkTemplate {
  parts: Array<{ literal: string } | { map: Map<string, string>; orId: boolean } | 'id'>;
  /** The public path resolved against the runtime's URL: where chunk paths start. */
  base: string;
}

const CONDITION = /\(?\s*[\w$"']{1,40}\s*===?\s*[\w$"']{1,40}\s*\?\s*(["'])([^"'\\]{1,300})\1\s*:\s*/y;
const TOKEN =
  /\s*(?:(["'])([^"'\\]{0,300})\1|(\{[^{}]{0,65536}\})\s*\)?\s*\[\s*([\w$]{1,20})\s*\](\s*\|\|\s*[\w$]{1,20})?|([\w$]{1,20})|[+()])/y;

/**
 * The expression after `.u=e=>`: conditionals for special chunks (`12===e?"a.js":…`, whose paths are
 * taken as they are), then a sum of literals, the id and lookups, up to the literal that ends in `.js`.
 */
function parseChunkExpression(
  text: string,
  from: number,
  param: string,
): { parts: WebpackChunkTemplate['parts']; direct: string[] } | null {
  let at = from;
  const direct: string[] = [];
  for (let i = 0; i < 50; i += 1) {
    CONDITION.lastIndex = at;
    const condition = CONDITION.exec(text);
    if (!condition) break;
    direct.push(condition[2]!);
    at = CONDITION.lastIndex;
  }
  const parts: WebpackChunkTemplate['parts'] = [];
  for (let i = 0; i < 60; i += 1) {
    TOKEN.lastIndex = at;
    const token = TOKEN.exec(text);
    if (!token) return null;
    at = TOKEN.lastIndex;
    if (token[2] !== undefined) {
      parts.push({ literal: token[2] });
      if (/\.m?js$/.test(token[2])) return { parts, direct };
    } else if (token[3] !== undefined) {
      if (token[4] !== param) return null;
      parts.push({ map: objectEntries(token[3]), orId: token[5] !== undefined });
    } else if (token[6] !== undefined) {
      if (token[6] !== param) return null;
      parts.push('id');
    }
  }
  return null;
}

/**
 * The chunk filename functions of a webpack runtime, the chunk ids its maps name, and the paths of
 * chunks it names outright. A build with one lazy chunk inlines that chunk's hash, so its ids come
 * only from `__webpack_require__.e(id)` calls (webpackChunkIds).
 */
function webpackTemplates(
  text: string,
  scriptUrl: string,
): { templates: Array<{ template: WebpackChunkTemplate; ids: string[] }>; urls: string[] } {
  const templates: Array<{ template: WebpackChunkTemplate; ids: string[] }> = [];
  const urls: string[] = [];
  const base = httpUrl(WEBPACK_PUBLIC_PATH.exec(text)?.[2] ?? './', scriptUrl);
  if (!base) return { templates, urls };
  for (const head of text.matchAll(WEBPACK_CHUNK_FUNCTION)) {
    const parsed = parseChunkExpression(text, head.index + head[0].length, head[1] ?? head[2]!);
    if (!parsed?.parts.some((p) => p === 'id' || (typeof p !== 'string' && 'map' in p))) continue;
    for (const path of parsed.direct)
      if (isScript(path)) urls.push(...[httpUrl(path, base)].filter((u): u is string => u !== null));
    const ids = parsed.parts.flatMap((p) => (typeof p !== 'string' && 'map' in p && !p.orId ? [...p.map.keys()] : []));
    templates.push({ template: { parts: parsed.parts, base }, ids: [...new Set(ids)].slice(0, MAX_CHUNK_IDS) });
  }
  return { templates, urls };
}

/** The URL webpack loads chunk `id` from. */
export function webpackChunkUrl(template: WebpackChunkTemplate, id: string): string | null {
  const path = template.parts
    .map((p) => (p === 'id' ? id : 'literal' in p ? p.literal : (p.map.get(id) ?? (p.orId ? id : ''))))
    .join('');
  return httpUrl(path, template.base);
}

/** Chunk ids a webpack bundle loads on demand: `__webpack_require__.e(74)`, minified `n.e(74)`. */
function webpackChunkIds(text: string): string[] {
  if (!text.includes('webpackChunk') && !text.includes('.u=')) return [];
  return [...new Set([...text.matchAll(/[\w$]\.e\((\d{1,9})\)/g)].map((m) => m[1]!))].slice(0, MAX_CHUNK_IDS);
}

/** Next.js chunk paths in any text (a build manifest, flight data, an RSC payload), as URLs under `/_next/` of the page's origin. */
export function nextChunks(text: string, pageUrl: string): string[] {
  const urls: string[] = [];
  for (const match of text.matchAll(NEXT_CHUNK)) {
    const path = match[0].startsWith('/_next/') ? match[0] : `/_next/${match[0]}`;
    const url = httpUrl(path, pageUrl);
    if (url) urls.push(url);
  }
  return urls;
}

export interface ChunkReferences {
  /** Script URLs the text names, in the order found; the caller keeps the same-site ones. */
  urls: string[];
  /** webpack chunk filename functions of a runtime, with the ids their maps name. */
  webpack: Array<{ template: WebpackChunkTemplate; ids: string[] }>;
  /** Chunk ids the text loads on demand, to be named by a runtime's function. */
  webpackIds: string[];
}

export function chunkReferences(text: string, scriptUrl: string): ChunkReferences {
  const urls: string[] = [];
  for (const match of text.matchAll(RELATIVE_IMPORT)) {
    const url = httpUrl(match[2]!, scriptUrl);
    if (url) urls.push(url);
  }
  if (text.includes('__vite__mapDeps') || text.includes('__vitePreload')) {
    for (const list of text.matchAll(VITE_DEPS)) {
      for (const [, , dep] of list[1]!.matchAll(STRING_LITERAL)) {
        if (!isScript(dep!)) continue;
        const url = httpUrl(dep!, viteBase(dep!, scriptUrl));
        if (url) urls.push(url);
      }
    }
  }
  if (scriptUrl.includes('/_next/')) urls.push(...nextChunks(text, scriptUrl));
  const webpack =
    text.includes('.u=') || text.includes('.u =') ? webpackTemplates(text, scriptUrl) : { templates: [], urls: [] };
  return {
    urls: [...new Set([...urls, ...webpack.urls])],
    webpack: webpack.templates,
    webpackIds: webpackChunkIds(text),
  };
}

/** The pages router's build manifest of a Next.js page: named by a script tag, or built from __NEXT_DATA__'s buildId. */
export function nextBuildManifest(pageUrl: string, scriptUrls: string[], nextData: string | null): string | null {
  const named = scriptUrls.find((url) => /\/_next\/static\/[^/]+\/_buildManifest\.js(?:\?|$)/.test(url));
  if (named) return named;
  const buildId = nextData ? /"buildId"\s*:\s*"([\w-]{1,100})"/.exec(nextData)?.[1] : undefined;
  return buildId ? httpUrl(`/_next/static/${buildId}/_buildManifest.js`, pageUrl) : null;
}
