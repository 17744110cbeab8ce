import { gunzipSync } from 'node:zlib';
import { Parser } from 'htmlparser2';

/** Bytes of one sitemap file, packed or unpacked (the sitemaps.org limit is 50 MB; we read less). */
export const SITEMAP_BYTES = 5 * 1024 * 1024;

export interface SitemapEntry {
  url: string;
  /** <priority>, 0.0 to 1.0; 0.5 (the protocol's default) when absent or malformed. */
  priority: number;
  /** <lastmod> as milliseconds since the epoch; 0 when absent or malformed. */
  lastmod: number;
}

export interface Sitemap {
  /** A <sitemapindex>: `sitemaps` lists its files. */
  index: boolean;
  entries: SitemapEntry[];
  sitemaps: string[];
}

const GZIP_MAGIC = [0x1f, 0x8b];

/** A .gz sitemap unpacked, up to SITEMAP_BYTES; null when it is broken or unpacks to more. */
export function unpackSitemap(body: Buffer): Buffer | null {
  if (body[0] !== GZIP_MAGIC[0] || body[1] !== GZIP_MAGIC[1]) return body;
  try {
    return gunzipSync(body, { maxOutputLength: SITEMAP_BYTES });
  } catch {
    return null;
  }
}

function priorityOf(text: string): number {
  const value = Number(text.trim());
  return text.trim() !== '' && Number.isFinite(value) && value >= 0 && value <= 1 ? value : 0.5;
}

function lastmodOf(text: string): number {
  const time = Date.parse(text.trim());
  return Number.isFinite(time) ? time : 0;
}

/**
 * Reads a sitemap or sitemap index (sitemaps.org) in one streaming pass, keeping at most `max`
 * locations. Namespaces and case in element names are ignored; text outside <loc>, <priority> and
 * <lastmod> is not kept.
 */
export function parseSitemap(xml: string, max: number): Sitemap {
  const map: Sitemap = { index: false, entries: [], sitemaps: [] };
  let entry: { loc: string; priority: string; lastmod: string } | null = null;
  let field: 'loc' | 'priority' | 'lastmod' | null = null;
  let inSitemap = false;
  const local = (name: string) => name.slice(name.indexOf(':') + 1).toLowerCase();
  const parser = new Parser(
    {
      onopentag(raw) {
        const name = local(raw);
        if (name === 'sitemapindex') map.index = true;
        if (name === 'url' || name === 'sitemap') {
          entry = { loc: '', priority: '', lastmod: '' };
          inSitemap = name === 'sitemap';
        } else if (entry && (name === 'loc' || name === 'priority' || name === 'lastmod')) field = name;
      },
      ontext(text) {
        // Bounded: a field longer than a URL can be is not one.
        if (entry && field && entry[field].length < 4_096) entry[field] += text;
      },
      onclosetag(raw) {
        const name = local(raw);
        if (name === field) field = null;
        if ((name === 'url' || name === 'sitemap') && entry) {
          const loc = entry.loc.trim();
          const total = map.entries.length + map.sitemaps.length;
          if (loc && total < max) {
            if (inSitemap) map.sitemaps.push(loc);
            else
              map.entries.push({ url: loc, priority: priorityOf(entry.priority), lastmod: lastmodOf(entry.lastmod) });
          }
          entry = null;
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  return map;
}
