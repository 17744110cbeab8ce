import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseRobots, patternMatches, robotsAllow, DISALLOW_ALL } from '../scanner/crawl/robots.ts';
import { parseSitemap, SITEMAP_BYTES, unpackSitemap } from '../scanner/crawl/sitemap.ts';
import { candidateUrl, selectPages, templateOf, type Candidate } from '../scanner/crawl/select.ts';

const allows = (robots: string, path: string) => robotsAllow(parseRobots(robots), new URL(path, 'https://winkel.test'));

describe('robots.txt (RFC 9309)', () => {
  it('obeys the group for our product token, else *', () => {
    const text = 'User-agent: *\nDisallow: /\n\nUser-agent: WebsiteSecurityScanner/2.0\nDisallow: /prive/\n';
    expect(allows(text, '/winkel')).toBe(true);
    expect(allows(text, '/prive/a')).toBe(false);
    expect(allows('User-agent: *\nDisallow: /\n', '/winkel')).toBe(false);
    expect(allows('User-agent: googlebot\nDisallow: /\n', '/winkel')).toBe(true);
  });

  it('merges groups for one agent and lets several agents share a group', () => {
    const text = 'User-agent: a\nUser-agent: *\nDisallow: /x/\n# comment\nUser-agent: *\nDisallow: /y/ # trailing\n';
    expect(allows(text, '/x/1')).toBe(false);
    expect(allows(text, '/y/1')).toBe(false);
    expect(allows(text, '/z/1')).toBe(true);
  });

  it('lets the longest match decide, Allow winning a tie, and ignores an empty Disallow', () => {
    expect(allows('User-agent: *\nDisallow: /shop/\nAllow: /shop/open\n', '/shop/open/1')).toBe(true);
    expect(allows('User-agent: *\nAllow: /shop/\nDisallow: /shop/closed\n', '/shop/closed')).toBe(false);
    expect(allows('User-agent: *\nDisallow: /a\nAllow: /a\n', '/a')).toBe(true);
    expect(allows('User-agent: *\nDisallow:\n', '/anything')).toBe(true);
  });

  it('matches * and a closing $, and percent-encodes patterns as URLs are', () => {
    expect(patternMatches('/*.pdf$', '/docs/folder.pdf')).toBe(true);
    expect(patternMatches('/*.pdf$', '/docs/folder.pdf.html')).toBe(false);
    expect(patternMatches('/a*b*c', '/a-x-b-y-c-z')).toBe(true);
    expect(patternMatches('/a*b*c', '/a-x-c-y-b')).toBe(false);
    expect(patternMatches('/exact$', '/exact')).toBe(true);
    expect(patternMatches('/exact$', '/exactly')).toBe(false);
    expect(allows('User-agent: *\nDisallow: /café\n', '/café/menu')).toBe(false);
  });

  it('always allows /robots.txt and disallows everything after a 5xx', () => {
    expect(robotsAllow(DISALLOW_ALL, new URL('https://winkel.test/robots.txt'))).toBe(true);
    expect(robotsAllow(DISALLOW_ALL, new URL('https://winkel.test/'))).toBe(false);
  });

  it('judges a hostile pattern against a long path in one pass', () => {
    const pattern = `/${'a*'.repeat(500)}b`;
    const path = `/${'a'.repeat(2_000)}`;
    expect(patternMatches(pattern, path)).toBe(false);
    expect(patternMatches(pattern, `${path}b`)).toBe(true);
  });

  it('keeps the Sitemap lines', () => {
    expect(parseRobots('Sitemap: https://winkel.test/s.xml\nUser-agent: *\nDisallow:\n').sitemaps).toEqual([
      'https://winkel.test/s.xml',
    ]);
  });
});

describe('sitemaps', () => {
  it('reads a urlset with priority and lastmod, and an index', () => {
    const map = parseSitemap(
      '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc> https://w.test/a </loc><priority>0.8</priority><lastmod>2026-01-02</lastmod></url><url><loc>https://w.test/b</loc><priority>twee</priority></url></urlset>',
      100,
    );
    expect(map.index).toBe(false);
    expect(map.entries).toEqual([
      { url: 'https://w.test/a', priority: 0.8, lastmod: Date.parse('2026-01-02') },
      { url: 'https://w.test/b', priority: 0.5, lastmod: 0 },
    ]);
    const index = parseSitemap(
      '<sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:sitemap><sm:loc>https://w.test/s1.xml.gz</sm:loc></sm:sitemap></sm:sitemapindex>',
      100,
    );
    expect(index).toMatchObject({ index: true, sitemaps: ['https://w.test/s1.xml.gz'], entries: [] });
  });

  it('keeps at most the URLs asked for', () => {
    const urls = Array.from({ length: 50 }, (_, i) => `<url><loc>https://w.test/${i}</loc></url>`).join('');
    expect(parseSitemap(`<urlset>${urls}</urlset>`, 10).entries).toHaveLength(10);
  });

  it('unpacks .gz up to its cap, and refuses a bomb', () => {
    const xml = '<urlset><url><loc>https://w.test/a</loc></url></urlset>';
    expect(unpackSitemap(gzipSync(xml))?.toString()).toBe(xml);
    expect(unpackSitemap(Buffer.from(xml))?.toString()).toBe(xml);
    expect(unpackSitemap(gzipSync(Buffer.alloc(SITEMAP_BYTES + 1, 0x20)))).toBeNull();
    expect(unpackSitemap(Buffer.from([0x1f, 0x8b, 1, 2, 3]))).toBeNull();
  });
});

describe('choosing pages', () => {
  const scope = { origin: 'https://w.test', includePaths: [] as string[], excludePaths: ['/intern/'] };

  it('folds numbers, UUIDs and hashes into one template', () => {
    expect(templateOf(new URL('https://w.test/p/12'))).toBe(templateOf(new URL('https://w.test/p/345')));
    expect(templateOf(new URL('https://w.test/o/6f1c2f0e-1d2b-4c3a-9e8f-0a1b2c3d4e5f'))).toBe('/o/:uuid');
    expect(templateOf(new URL('https://w.test/a/9f86d081884c7d659a2feaa0c55ad015'))).toBe('/a/:hash');
    expect(templateOf(new URL('https://w.test/blog/over-ons'))).toBe('/blog/over-ons');
  });

  it('leaves other origins, queries, assets, endings and excluded paths, and ignores what is no page', () => {
    const judge = (raw: string) => candidateUrl(raw, 'https://w.test/x', scope);
    expect(judge('/a#kop')).toEqual({ url: 'https://w.test/a' });
    expect(judge('https://elders.test/')).toEqual({ skip: 'off_origin' });
    expect(judge('http://w.test/a')).toEqual({ skip: 'off_origin' });
    expect(judge('/zoek?q=1')).toEqual({ skip: 'excluded' });
    expect(judge('/folder.PDF')).toEqual({ skip: 'not_html' });
    for (const ending of [
      '/logout',
      '/account/uitloggen',
      '/nieuwsbrief/afmelden',
      '/verwijder-account',
      '/Unsubscribe',
    ])
      expect(judge(ending), ending).toEqual({ skip: 'excluded' });
    expect(judge('/intern/x')).toEqual({ skip: 'excluded' });
    expect(judge('mailto:a@w.test')).toBeNull();
    expect(judge('javascript:void(0)')).toBeNull();
    expect(candidateUrl('/blog/a', 'https://w.test/', { ...scope, includePaths: ['/shop/'] })).toEqual({
      skip: 'excluded',
    });
  });

  it('takes one page per section first, login and checkout pages first, then by priority; two per template', () => {
    let order = 0;
    const c = (path: string, priority = 0.5, nav = false): Candidate => ({
      url: `https://w.test${path}`,
      source: 'link',
      order: ++order,
      priority,
      lastmod: 0,
      nav,
    });
    const candidates = [
      c('/shop/p/1', 0.9),
      c('/shop/p/2', 0.9),
      c('/shop/p/3', 0.9),
      c('/shop/afrekenen'),
      c('/blog/a', 0.3),
      c('/blog/b', 0.4, true),
      c('/over'),
    ];
    const chosen = selectPages(candidates, ['https://w.test/'], 5, () => true).map((x) => new URL(x.url).pathname);
    expect(chosen).toEqual(['/shop/afrekenen', '/blog/b', '/over', '/shop/p/1', '/shop/p/2']);
    expect(selectPages([...candidates].reverse(), ['https://w.test/'], 5, () => true).map((x) => x.url)).toHaveLength(
      5,
    );
    const blocked = selectPages(candidates, ['https://w.test/'], 10, (url) => !url.pathname.startsWith('/shop/'));
    expect(blocked.map((x) => new URL(x.url).pathname)).toEqual(['/blog/b', '/over', '/blog/a']);
  });
});
