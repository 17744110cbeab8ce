import { decodeBody } from '../net/charset.ts';
import { firstHeader } from '../net/headers.ts';
import type { FetchFailure, HttpClient } from '../net/http-client.ts';
import { UNAVAILABLE_STATUSES } from '../net/http-evidence.ts';
import type { SightingMethod } from '../vulndata/sightings.ts';
import { isVersion, VERSION_PATTERN } from '../vulndata/versions.ts';
import type { WordPressPart } from '../vulndata/wordfence-feed.ts';
import type { HtmlFacts } from './html.ts';

/** A WordPress part at a version, and how and where the version was read. */
export interface WordPressSighting {
  part: WordPressPart;
  slug: string;
  version: string;
  method: SightingMethod;
  url: string;
}

export interface WordPressEvidence {
  sightings: WordPressSighting[];
  /** Plugins and themes whose path the site shows but whose version nothing gave. */
  unversioned: Array<{ part: WordPressPart; slug: string }>;
  /** Requests that got no answer (or only a gateway's), for coverage. */
  unread: Array<{ url: string; failure: FetchFailure | number }>;
}

/** At most this many plugin readme.txt and theme style.css reads: no guessing of slugs in bulk. */
export const WORDPRESS_LIMITS = { readmes: 8, themes: 2, fileBytes: 32 * 1024 } as const;

const CORE_NAMESPACES = new Set(['wp', 'oembed', 'wp-site-health', 'wp-block-editor', 'wp-abilities']);
/** REST namespaces whose plugin folder has another name. */
const NAMESPACE_SLUGS: Record<string, string> = {
  yoast: 'wordpress-seo',
  wc: 'woocommerce',
  'wc-admin': 'woocommerce',
};

/** Versions plugins print about themselves in the page: generator metas and HTML comments. */
const PLUGIN_MARKERS: Array<{ slug: string; pattern: RegExp }> = [
  {
    slug: 'woocommerce',
    pattern: new RegExp(`<meta name="generator" content="WooCommerce (${VERSION_PATTERN})"`, 'i'),
  },
  { slug: 'elementor', pattern: new RegExp(`<meta name="generator" content="Elementor (${VERSION_PATTERN})`, 'i') },
  { slug: 'wordpress-seo', pattern: new RegExp(`optimized with the Yoast SEO plugin v(${VERSION_PATTERN}) -`, 'i') },
  { slug: 'all-in-one-seo-pack', pattern: new RegExp(`<!-- All in One SEO (${VERSION_PATTERN}) - aioseo\\.com`, 'i') },
  {
    slug: 'google-analytics-for-wordpress',
    pattern: new RegExp(`Google Analytics by MonsterInsights plugin v(${VERSION_PATTERN}) -`, 'i'),
  },
  { slug: 'google-site-kit', pattern: new RegExp(`content="Site Kit by Google (${VERSION_PATTERN})"`, 'i') },
];

const PART_PATH = /\/wp-content\/(plugins|themes)\/([a-z0-9._-]{1,100})\/[^"'\s<>]*/gi;
const VER = /[?&]ver=([^&#"'\s]+)/;
const CORE_ASSET = new RegExp(
  `wp-includes(?:\\\\?/)(?:js(?:\\\\?/)wp-emoji-release\\.min\\.js|css(?:\\\\?/)dist(?:\\\\?/)block-library(?:\\\\?/)style(?:\\.min)?\\.css)\\?ver=(${VERSION_PATTERN})`,
);

function parts(text: string, origin: string) {
  const found = new Map<string, { part: WordPressPart; slug: string; vers: string[] }>();
  for (const match of text.replaceAll('\\/', '/').matchAll(PART_PATH)) {
    // Only this site's own copy: another site's plugin path says nothing of this one.
    const before = text.slice(Math.max(0, match.index - 300), match.index).replaceAll('\\/', '/');
    const host = /https?:\/\/([^/"'\s]+)$/.exec(before)?.[1];
    if (host && host !== new URL(origin).host) continue;
    const part: WordPressPart = match[1]!.toLowerCase() === 'plugins' ? 'plugin' : 'theme';
    const slug = match[2]!.toLowerCase();
    const entry = found.get(`${part}:${slug}`) ?? { part, slug, vers: [] };
    const ver = VER.exec(match[0])?.[1];
    if (ver) entry.vers.push(decodeURIComponent(ver));
    found.set(`${part}:${slug}`, entry);
  }
  return found;
}

/**
 * Reads which WordPress core, plugins and themes a site runs, and their versions, with GET only
 * and at most about 14 requests: the page itself (generator meta, plugin markers, asset paths
 * with ?ver=), the RSS feed's <generator>, the REST index's namespaces, each plugin's readme.txt
 * "Stable tag" when nothing else gave its version, and each theme's style.css.
 */
export async function probeWordPress(
  client: HttpClient,
  page: { url: string; html: string | null },
  facts: HtmlFacts,
): Promise<WordPressEvidence> {
  const origin = new URL(page.url).origin;
  const html = page.html ?? '';
  const sightings: WordPressSighting[] = [];
  const unread: WordPressEvidence['unread'] = [];
  const see = (part: WordPressPart, slug: string, version: string | undefined, method: SightingMethod, url: string) => {
    if (
      version &&
      isVersion(version) &&
      !sightings.some((s) => s.part === part && s.slug === slug && s.method === method)
    )
      sightings.push({ part, slug, version, method, url });
  };
  const get = async (path: string) => {
    const url = new URL(path, origin).href;
    const answer = await client.fetch(url, { maxBytes: WORDPRESS_LIMITS.fileBytes * 8 });
    const failure =
      client.failureOf(url) ?? (answer && UNAVAILABLE_STATUSES.has(answer.status) ? answer.status : undefined);
    if (failure !== undefined) unread.push({ url, failure });
    if (answer?.status !== 200 || !answer.body) return null;
    return {
      url,
      text: decodeBody(answer.body, firstHeader(answer.headers, 'content-type')),
      type: firstHeader(answer.headers, 'content-type') ?? '',
    };
  };

  for (const generator of facts.metaNames.generator ?? [])
    see('core', 'wordpress', /^WordPress (\S+)$/i.exec(generator.trim())?.[1], 'generator', page.url);
  see('core', 'wordpress', CORE_ASSET.exec(html)?.[1], 'query_ver', page.url);
  for (const { slug, pattern } of PLUGIN_MARKERS)
    see('plugin', slug, pattern.exec(html)?.[1], 'plugin_marker', page.url);

  // Query forms work with any permalink setting; with pretty permalinks WordPress may redirect the feed's.
  const [feed, index] = await Promise.all([
    get('/?feed=rss2').then((answer) => answer ?? get('/feed/')),
    get('/?rest_route=/').then((answer) => answer ?? get('/wp-json/')),
  ]);
  if (feed)
    see(
      'core',
      'wordpress',
      /<generator>https?:\/\/wordpress\.org\/\?v=([^<\s]+)<\/generator>/i.exec(feed.text)?.[1],
      'feed',
      feed.url,
    );

  const found = parts([html, ...facts.resourceUrls].join('\n'), origin);
  if (index && /json/i.test(index.type)) {
    for (const [key, value] of parts(index.text, origin)) if (!found.has(key)) found.set(key, value);
    const namespaces = /"namespaces"\s*:\s*\[([^\]]{0,4000})\]/.exec(index.text)?.[1] ?? '';
    for (const [, namespace] of namespaces.matchAll(/"([a-z0-9._-]{1,100})\/[^"]*"/gi)) {
      const name = namespace!.toLowerCase();
      if (CORE_NAMESPACES.has(name)) continue;
      const slug = NAMESPACE_SLUGS[name] ?? name;
      if (!found.has(`plugin:${slug}`)) found.set(`plugin:${slug}`, { part: 'plugin', slug, vers: [] });
    }
  }

  const coreVersion = sightings.find((s) => s.part === 'core')?.version;
  const unversioned: WordPressEvidence['unversioned'] = [];
  const readmes: Array<{ slug: string }> = [];
  const themes: Array<{ slug: string }> = [];
  for (const { part, slug, vers } of found.values()) {
    // WordPress adds its own version to an asset enqueued without one: that ?ver= is not the plugin's.
    const own = vers.find((v) => isVersion(v) && v !== coreVersion);
    if (part === 'plugin') {
      if (own) see(part, slug, own, 'query_ver', `${origin}/wp-content/plugins/${slug}/`);
      if (!own && !sightings.some((s) => s.part === part && s.slug === slug)) readmes.push({ slug });
    } else themes.push({ slug });
  }
  const reads = [
    ...readmes.slice(0, WORDPRESS_LIMITS.readmes).map(async ({ slug }) => {
      const file = await get(`/wp-content/plugins/${slug}/readme.txt`);
      const tag =
        file && !/html/i.test(file.type)
          ? /^\s*Stable tag:\s*(\S+)\s*$/im.exec(file.text.slice(0, WORDPRESS_LIMITS.fileBytes))?.[1]
          : undefined;
      if (tag && isVersion(tag)) see('plugin', slug, tag, 'readme', file!.url);
      else unversioned.push({ part: 'plugin', slug });
    }),
    ...themes.slice(0, WORDPRESS_LIMITS.themes).map(async ({ slug }) => {
      const file = await get(`/wp-content/themes/${slug}/style.css`);
      const version =
        file && !/html/i.test(file.type)
          ? /^\s*Version:\s*(\S+)\s*$/im.exec(file.text.slice(0, WORDPRESS_LIMITS.fileBytes))?.[1]
          : undefined;
      if (version && isVersion(version)) see('theme', slug, version, 'style_css', file!.url);
      else unversioned.push({ part: 'theme', slug });
    }),
  ];
  await Promise.all(reads);
  for (const { slug } of readmes.slice(WORDPRESS_LIMITS.readmes)) unversioned.push({ part: 'plugin', slug });
  return { sightings, unversioned, unread };
}
