import { gzipSync } from 'node:zlib';
import { certificate, startSite, type FixtureSite, type Reply, type Route } from './fixture-sites.ts';
import { random } from './secret-samples.ts';

/** Headers of a well-kept page: what the shop's home page sends. */
export const GOOD_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=()',
  'cross-origin-opener-policy': 'same-origin',
  'strict-transport-security': 'max-age=31536000',
};

/** The account page's headers: a policy without frame-ancestors, and no X-Frame-Options. */
export const UNFRAMED_HEADERS: Record<string, string> = {
  ...GOOD_HEADERS,
  'content-security-policy': "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'self'",
};
delete UNFRAMED_HEADERS['x-frame-options'];

const NAV = `<header><nav>
  <a href="/">Home</a> <a href="/winkel/">Winkel</a> <a href="/blog/">Blog</a> <a href="/login">Inloggen</a>
  <a href="/account">Mijn account</a> <a href="/afrekenen">Afrekenen</a> <a href="/contact">Contact</a>
</nav></header>`;
const FOOTER = `<footer><a href="/uitloggen">Uitloggen</a> <a href="/nieuwsbrief/afmelden">Afmelden</a>
  <a href="/beheer/">Beheer</a> <a href="/zoeken?q=trui">Zoeken</a> <a href="/folder.pdf">Folder</a>
  <a href="https://elders.example/">Partner</a> <a href="mailto:info@winkel.test">Mail</a> <a href="#top">Boven</a></footer>`;

export const page = (title: string, body = '', headers: Record<string, string | string[]> = GOOD_HEADERS): Reply => ({
  headers,
  body: `<!doctype html><html lang="nl"><head><meta charset="utf-8"><title>${title}</title></head><body>${NAV}<main><h1>${title}</h1>${body}</main>${FOOTER}</body></html>`,
});

export const PRODUCTS = 40;

function sitemap(origin: string, paths: Array<[string, number]>): string {
  const urls = paths
    .map(([path, priority]) => `<url><loc>${origin}${path}</loc><priority>${priority}</priority></url>`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`;
}

export interface Shop {
  site: FixtureSite;
  /** The live Stripe key the checkout's script carries (generated per run). */
  stripeKey: string;
  /** Pages by path, to change between scans. */
  routes: Record<string, Route>;
}

/**
 * A WordPress-style shop over HTTPS (plain HTTP with `https: false`, for the benchmark) whose home page is clean, with the five problems of issue 56 on
 * other pages, a robots.txt that disallows /beheer/, a sitemap index pointing to a gzipped sitemap,
 * 40 product pages of one template, a page only in the sitemap, one only linked, and links that log
 * out or unsubscribe. Every request is logged (`site.targets`).
 */
/** Sections a larger shop adds (the benchmark's 25-page crawl): each one page, linked from the home page. */
export const MORE_SECTIONS = [
  'over-ons',
  'vacatures',
  'nieuws',
  'veelgestelde-vragen',
  'verzending',
  'retouren',
  'garantie',
  'privacy',
  'voorwaarden',
  'klantenservice',
  'merken',
  'cadeaubon',
  'outlet',
  'duurzaamheid',
  'pers',
  'partners',
  'winkels',
  'openingstijden',
] as const;

export async function startShop(
  options: { robots?: Route; https?: boolean; sections?: readonly string[] } = {},
): Promise<Shop> {
  const stripeKey = `sk_live_51${random(97)}`;
  const routes: Record<string, Route> = {};
  const site = await startSite({
    routes,
    gzip: true,
    ...(options.https === false ? {} : { tls: { certificate: certificate() } }),
  });
  const origin = site.url.replace(/\/$/, '');
  const products = Array.from({ length: PRODUCTS }, (_, i) => `/producten/${i + 1}`);
  Object.assign(routes, {
    '/': page(
      'Winkel',
      `<p>Welkom.</p>${(options.sections ?? []).map((name) => `<a href="/${name}">${name}</a>`).join(' ')}`,
    ),
    '/robots.txt': options.robots ?? {
      headers: { 'content-type': 'text/plain' },
      body: `User-agent: *\nDisallow: /beheer/\n\nSitemap: ${origin}/sitemap_index.xml\n`,
    },
    '/sitemap_index.xml': {
      headers: { 'content-type': 'application/xml' },
      body: `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${origin}/page-sitemap.xml.gz</loc></sitemap></sitemapindex>`,
    },
    '/page-sitemap.xml.gz': {
      headers: { 'content-type': 'application/x-gzip' },
      body: gzipSync(
        sitemap(origin, [
          ['/', 1],
          ['/alleen-in-sitemap', 0.7],
          ['/blog/2019/oude-actie', 0.9],
          ...products.map((p): [string, number] => [p, 0.5]),
        ]),
      ),
    },
    '/winkel/': page('Winkel', products.map((p) => `<a href="${p}">Product</a>`).join(' ')),
    '/blog/': page('Blog', '<a href="/blog/2019/oude-actie">Oude actie</a> <a href="/alleen-gelinkt">Verhaal</a>'),
    '/alleen-in-sitemap': page('Over ons'),
    '/alleen-gelinkt': page('Verhaal'),
    '/beheer/': page('Beheer'),
    '/uitloggen': page('Uitgelogd'),
    '/nieuwsbrief/afmelden': page('Afgemeld'),
    '/login': {
      ...page(
        'Inloggen',
        '<form method="post" action="/login"><input name="user"><input type="password" name="pw"><button>Inloggen</button></form>',
      ),
      headers: { ...GOOD_HEADERS, 'set-cookie': 'sessionid=3f9a; Path=/; SameSite=Lax' },
    },
    '/contact': page(
      'Contact',
      `<form method="post" action="http://${new URL(origin).host}/contact-verzenden"><textarea name="bericht"></textarea><button>Verstuur</button></form>`,
    ),
    '/blog/2019/oude-actie': page(
      'Oude actie',
      '<img src="http://cdn.winkel.test/actie.jpg" alt=""><script src="http://cdn.winkel.test/teller.js"></script>',
    ),
    '/afrekenen': page('Afrekenen', '<script src="/js/betalen.js"></script>', UNFRAMED_HEADERS),
    '/js/betalen.js': {
      headers: { 'content-type': 'application/javascript' },
      body: `(()=>{const betaal={sleutel:${JSON.stringify(stripeKey)}};window.betaal=betaal;})();`,
    },
    '/account': page('Mijn account', '<p>Bestellingen</p>', UNFRAMED_HEADERS),
  });
  for (const product of products) routes[product] = page('Product');
  for (const name of options.sections ?? []) routes[`/${name}`] = page(name);
  return { site, stripeKey, routes };
}
