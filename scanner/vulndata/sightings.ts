import { createHash } from 'node:crypto';
import { MAX_WINDOWS, matchInWindows, WINDOW, type AnchoredPattern } from './anchored-pattern.ts';
import { LiteralSearch } from './literal-search.ts';
import { nextTurn } from '../turns.ts';
import type { CompiledComponent, CompiledRetire } from './retire-repository.ts';
import { isVersion, VERSION_PATTERN } from './versions.ts';

/**
 * How a version was read, and how sure that makes it (docs/scanner.md, "Known-vulnerable
 * components"): the component's own text is exact; a name or number beside it is inferred.
 */
export const SIGHTING_METHODS = {
  content: { exact: true, label: 'versietekst in het script' },
  hash: { exact: true, label: 'SHA-1 van het hele bestand' },
  cdn_url: { exact: true, label: 'versie in de URL van een publiek CDN' },
  runtime: { exact: true, label: 'versie die de code zelf zet' },
  url_path: { exact: false, label: 'versie in het pad van de URL' },
  file_name: { exact: false, label: 'versie in de bestandsnaam' },
  query_ver: { exact: false, label: '?ver= in de URL' },
  generator: { exact: true, label: 'generator-meta van de pagina' },
  feed: { exact: true, label: '<generator> van de RSS-feed' },
  plugin_marker: { exact: true, label: 'versie die de plugin zelf in de pagina zet' },
  readme: { exact: false, label: '"Stable tag" in readme.txt' },
  style_css: { exact: true, label: 'Version: in style.css van het thema' },
} as const;
export type SightingMethod = keyof typeof SIGHTING_METHODS;

/** One component at one version, seen at one place. */
export interface Sighting {
  component: string;
  version: string;
  method: SightingMethod;
  /** The script, page or file the version was read from. */
  url: string;
}

const MAX_URL = 2048;

/** Hosts that serve exactly the release a URL names. */
const PUBLIC_CDNS = new Set([
  'cdnjs.cloudflare.com',
  'cdn.jsdelivr.net',
  'unpkg.com',
  'code.jquery.com',
  'ajax.googleapis.com',
  'ajax.aspnetcdn.com',
  'stackpath.bootstrapcdn.com',
  'maxcdn.bootstrapcdn.com',
  'cdn.bootcdn.net',
]);

/** jsDelivr's and unpkg's package URLs: /npm/<name>@<version>/… and /<name>@<version>/…, scoped names too. */
const PACKAGE_URL = new RegExp(
  `^https?://(?:cdn\\.jsdelivr\\.net/npm|unpkg\\.com)/((?:@[a-z0-9._-]+/)?[a-z0-9._-]+)@(${VERSION_PATTERN})(?:/|$)`,
  'i',
);
/** WordPress's own copy of jQuery (and jQuery Migrate), whose ?ver= is the library's version. */
const WORDPRESS_JQUERY = /\/wp-includes\/js\/jquery\/(jquery|jquery-migrate)(?:\.min)?\.js\?(?:.*&)?ver=([^&#]+)/i;
/** A content hash a build tool adds to a file name (Webflow's jquery-3.5.1.min.dc5e7f18c8.js). */
const CONTENT_HASH = /\.[0-9a-f]{8,32}(?=\.js$)/i;

export class ComponentIndex {
  private readonly byNpm = new Map<string, CompiledComponent>();
  private readonly anchors: LiteralSearch;
  private readonly anchorOf = new Map<AnchoredPattern, number>();

  constructor(readonly retire: CompiledRetire) {
    const literals = new Map<string, number>();
    for (const component of retire.components) {
      this.byNpm.set(component.name.toLowerCase(), component);
      if (component.npm) this.byNpm.set(component.npm.toLowerCase(), component);
      for (const pattern of [...component.content, ...component.replace.map((r) => r.pattern)]) {
        if (!literals.has(pattern.anchor)) literals.set(pattern.anchor, literals.size);
        this.anchorOf.set(pattern, literals.get(pattern.anchor)!);
      }
    }
    this.anchors = new LiteralSearch([...literals.keys()]);
  }

  componentOfPackage(name: string): CompiledComponent | undefined {
    return this.byNpm.get(name.toLowerCase());
  }

  /** What a script's URL names, without fetching it (cross-site scripts included). */
  urlSightings(url: string): Sighting[] {
    // No library URL is this long; a hostile page's is not worth the patterns' time.
    if (url.length > MAX_URL) return [];
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return [];
    }
    const found: Sighting[] = [];
    const add = (component: string, version: string | undefined, method: SightingMethod) => {
      if (version && isVersion(version) && !found.some((s) => s.component === component))
        found.push({ component, version, method, url });
    };
    const pkg = PACKAGE_URL.exec(url);
    if (pkg) {
      const component = this.componentOfPackage(pkg[1]!);
      if (component) add(component.name, pkg[2], 'cdn_url');
    }
    const wp = WORDPRESS_JQUERY.exec(url);
    if (wp) add(wp[1]!.toLowerCase(), decodeURIComponent(wp[2]!), 'query_ver');
    const cdn = PUBLIC_CDNS.has(parsed.hostname);
    const withoutQuery = `${parsed.origin}${parsed.pathname}`;
    const fileName = (parsed.pathname.split('/').pop() ?? '').replace(CONTENT_HASH, '');
    for (const component of this.retire.components) {
      for (const regex of component.uri) {
        const match = regex.exec(withoutQuery);
        if (match) add(component.name, match[1], cdn ? 'cdn_url' : 'url_path');
      }
      for (const regex of component.filename) {
        const match = regex.exec(fileName);
        // Anchored at the name's start, as a file name pattern means the whole name.
        if (match?.index === 0) add(component.name, match[1], cdn ? 'cdn_url' : 'file_name');
      }
    }
    return found;
  }

  /**
   * What a script's text says of itself: its hash, the patterns of the data, and the runtimes we
   * read. Asynchronous so a large script yields the event loop between slices and components.
   */
  async scriptSightings(text: string, url: string): Promise<Sighting[]> {
    const found: Sighting[] = [];
    const add = (component: string, version: string | undefined, method: SightingMethod) => {
      if (version && isVersion(version) && !found.some((s) => s.component === component))
        found.push({ component, version, method, url });
    };
    const sha1 = createHash('sha1').update(text).digest('hex');
    const hits = await this.anchors.find(text, MAX_WINDOWS, WINDOW);
    const match = (pattern: AnchoredPattern) => matchInWindows(pattern, text, hits[this.anchorOf.get(pattern)!]!);
    for (const [n, component] of this.retire.components.entries()) {
      // Each component's windows are bounded work; a turn every few components keeps the loop free.
      if (n % 8 === 7) await nextTurn();
      add(component.name, component.hashes.get(sha1), 'hash');
      for (const pattern of component.content) add(component.name, match(pattern)?.[1], 'content');
      for (const { pattern, replacement } of component.replace) {
        const found = match(pattern);
        if (found)
          add(
            component.name,
            replacement.replace(/\$(\d)/g, (_, n: string) => found[Number(n)] ?? ''),
            'content',
          );
      }
    }
    for (const [component, version] of runtimeVersions(text))
      if (this.componentOfPackage(component)) add(component, version, 'runtime');
    return found;
  }
}

/** The string a variable is set to (`,nn="4.18.1"`), the nearest assignment before `before`. */
function assignedString(text: string, name: string, before: number): string | null {
  const needle = `${name}="`;
  let at = text.lastIndexOf(needle, before);
  for (let tries = 0; at > 0 && tries < 8; tries++, at = text.lastIndexOf(needle, at - 1)) {
    if (/[\w$.]/.test(text[at - 1]!)) continue;
    const end = text.indexOf('"', at + needle.length);
    const value = end > 0 && end - at < 64 ? text.slice(at + needle.length, end) : null;
    if (value && isVersion(value)) return value;
  }
  return null;
}

/**
 * Versions a runtime sets in its own minified code, literal or through a variable: Next.js's
 * `window.next={version:…}` and lodash's `.VERSION=…` after its `{chain:false}` mixin (npm's
 * minified build, and Debian's libjs-lodash, which strips only the whitespace).
 */
function runtimeVersions(text: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const read = (component: string, anchor: string, tail: RegExp) => {
    const at = text.indexOf(anchor);
    if (at < 0) return;
    const after = tail.exec(text.slice(at + anchor.length, at + anchor.length + 200));
    if (!after) return;
    const version = after[1] ?? assignedString(text, after[2]!, at);
    if (version) out.push([component, version]);
  };
  read('nextjs', 'window.next={version:', /^(?:"([^"]{1,40})"|([A-Za-z_$][\w$]{0,30}))[,}]/);
  read(
    'lodash',
    '{chain:false',
    /^\s*\}\)[,;]\s*[A-Za-z_$][\w$]*\.VERSION\s*=\s*(?:"([^"]{1,40})"|([A-Za-z_$][\w$]{0,30}))[,;]/,
  );
  return out;
}
