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
const VITE_DEPS = /\.f\s*=\s*\[([^\]]{0,65536})\]/g;
const STRING_LITERAL = /(["'`])([^"'`\\]{1,300})\1/g;
const NEXT_CHUNK = /(?:\/_next\/)?static\/chunks\/[\w/[\]().@%~+=-]{1,300}?\.js(?![\w.])/g;
/** webpack's chunk filename function, as webpack 5 emits it minified or not (`x.u=e=>…` or `x.u=function(e){return …}`). */
const WEBPACK_CHUNK_FUNCTION = /\.u\s*=\s*(?:function\s*\(\s*([\w$]{1,20})\s*\)\s*\{\s*return\s*|\(?\s*([\w$]{1,20})\s*\)?\s*=>\s*)([^;}]{0,200}(?:\{[^{}]{0,65536}\}[^;{}]{0,200}){1,3})/g;
const WEBPACK_PUBLIC_PATH = /\.p\s*=\s*(["'])([^"'\s]{0,200})\1/;
const MAX_CHUNK_IDS = 300;

function resolve(path: string, base: string): string | null {
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
  for (const match of literal.matchAll(/(?:^|[{,])\s*(?:(\d{1,12})|(["'])([^"'\\]{1,200})\2|([\w$]{1,100}))\s*:\s*(["'])([^"'\\]{0,300})\5/g)) {
    entries.set(match[1] ?? match[3] ?? match[4]!, match[6]!);
  }
  return entries;
}

/**
 * The URLs webpack's `.u` function gives for every chunk id its maps name: the expression is a sum of
 * string literals, the id, `{…}[id]` lookups and `({…}[id]||id)` names.
 */
function webpackChunks(text: string, scriptUrl: string): string[] {
  const urls: string[] = [];
  for (const match of text.matchAll(WEBPACK_CHUNK_FUNCTION)) {
    const param = match[1] ?? match[2]!;
    const expression = match[3]!;
    const parts: Array<{ literal: string } | { map: Map<string, string>; orId: boolean } | 'id'> = [];
    const part = new RegExp(`(["'])([^"'\\\\]{0,300})\\1|\\(*\\s*(\\{[^{}]{0,65536}\\})\\s*\\)?\\s*\\[\\s*${param.replace(/\$/g, '\\$')}\\s*\\]\\s*(\\|\\|\\s*${param.replace(/\$/g, '\\$')})?|\\b${param.replace(/\$/g, '\\$')}\\b`, 'g');
    for (const piece of expression.matchAll(part)) {
      if (piece[2] !== undefined) parts.push({ literal: piece[2] });
      else if (piece[3] !== undefined) parts.push({ map: objectEntries(piece[3]), orId: piece[4] !== undefined });
      else parts.push('id');
    }
    const last = parts.at(-1);
    if (!last || typeof last === 'string' || !('literal' in last) || !/\.m?js$/.test(last.literal)) continue;
    const maps = parts.filter((p): p is { map: Map<string, string>; orId: boolean } => typeof p !== 'string' && 'map' in p);
    // The ids are the keys of the map without fallback (the content hashes): every chunk has one.
    const hashes = maps.find((m) => !m.orId) ?? maps[0];
    if (!hashes) continue;
    const publicPath = WEBPACK_PUBLIC_PATH.exec(text)?.[2] ?? './';
    for (const id of [...hashes.map.keys()].slice(0, MAX_CHUNK_IDS)) {
      const path = parts.map((p) => (p === 'id' ? id : 'literal' in p ? p.literal : (p.map.get(id) ?? (p.orId ? id : '')))).join('');
      const url = resolve(`${publicPath}${path}`, scriptUrl);
      if (url) urls.push(url);
    }
  }
  return urls;
}

/** Next.js chunk paths in any text (a build manifest, flight data, an RSC payload), as URLs under `/_next/` of the page's origin. */
export function nextChunks(text: string, pageUrl: string): string[] {
  const urls: string[] = [];
  for (const match of text.matchAll(NEXT_CHUNK)) {
    const path = match[0].startsWith('/_next/') ? match[0] : `/_next/${match[0]}`;
    const url = resolve(path, pageUrl);
    if (url) urls.push(url);
  }
  return urls;
}

/** Every script URL a script's text refers to, in the order found; the caller keeps the same-site ones. */
export function chunkReferences(text: string, scriptUrl: string): string[] {
  const urls: string[] = [];
  for (const match of text.matchAll(RELATIVE_IMPORT)) {
    const url = resolve(match[2]!, scriptUrl);
    if (url) urls.push(url);
  }
  if (text.includes('__vite__mapDeps') || text.includes('__vitePreload')) {
    for (const list of text.matchAll(VITE_DEPS)) {
      for (const [, , dep] of list[1]!.matchAll(STRING_LITERAL)) {
        if (!isScript(dep!)) continue;
        const url = resolve(dep!, viteBase(dep!, scriptUrl));
        if (url) urls.push(url);
      }
    }
  }
  if (text.includes('.u=') || text.includes('.u =')) urls.push(...webpackChunks(text, scriptUrl));
  if (scriptUrl.includes('/_next/')) urls.push(...nextChunks(text, scriptUrl));
  return [...new Set(urls)];
}

/** The pages router's build manifest of a Next.js page: named by a script tag, or built from __NEXT_DATA__'s buildId. */
export function nextBuildManifest(pageUrl: string, scriptUrls: string[], nextData: string | null): string | null {
  const named = scriptUrls.find((url) => /\/_next\/static\/[^/]+\/_buildManifest\.js(?:\?|$)/.test(url));
  if (named) return named;
  const buildId = nextData ? /"buildId"\s*:\s*"([\w-]{1,100})"/.exec(nextData)?.[1] : undefined;
  return buildId ? resolve(`/_next/static/${buildId}/_buildManifest.js`, pageUrl) : null;
}
