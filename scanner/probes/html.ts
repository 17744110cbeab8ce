import { Parser } from 'htmlparser2';

export interface ScriptTag {
  src: string;
  integrity: string | null;
}

/** A script element's own text, as the browser runs it (or, for JSON data islands, reads it). */
export interface InlineScript {
  /** The type attribute, lowercased; null when absent (classic JavaScript). */
  type: string | null;
  text: string;
}

/** How a browser treats a subresource loaded over http:// from an https:// page. */
export type SubresourceKind = 'script' | 'active' | 'form' | 'passive';

export interface Subresource {
  kind: SubresourceKind;
  /** The element and attribute the URL came from, e.g. "link[href]". */
  source: string;
  url: string;
  /** For forms: whether the form has a password field. */
  password?: boolean;
}

export interface HtmlFacts {
  scripts: ScriptTag[];
  inlineScripts: InlineScript[];
  /** Scripts the page asks the browser to fetch ahead (modulepreload, preload as=script). */
  scriptPreloads: string[];
  /** <meta http-equiv> values by lowercase header name. */
  httpEquiv: Record<string, string[]>;
  /** <meta name=...> contents by lowercase name. */
  metaNames: Record<string, string[]>;
  /** Every src/href URL seen on script, link, img and iframe elements. */
  resourceUrls: string[];
  /** Lowercase attribute names seen anywhere (data-wf-site and similar markers). */
  attributeNames: Set<string>;
  /** Ids of elements (e.g. __NEXT_DATA__). */
  elementIds: Set<string>;
  /** URLs the page loads or submits to, by how browsers block them as mixed content. */
  subresources: Subresource[];
  /** <a href> targets in document order; `nav` when inside <nav> or <header> (the site's navigation). */
  links: Array<{ href: string; nav: boolean }>;
  /** The page has an <input type=password>, in a form or not. */
  passwordField: boolean;
}

/** Element attributes that load a URL, and the kind of content (the Mixed Content spec's blockable and upgradeable). */
const SUBRESOURCE_ATTRIBUTES: Record<string, Array<[string, Exclude<SubresourceKind, 'form'>]>> = {
  script: [['src', 'script']],
  iframe: [['src', 'active']],
  frame: [['src', 'active']],
  object: [['data', 'active']],
  embed: [['src', 'active']],
  img: [
    ['src', 'passive'],
    ['srcset', 'passive'],
  ],
  audio: [['src', 'passive']],
  video: [
    ['src', 'passive'],
    ['poster', 'passive'],
  ],
  source: [
    ['src', 'passive'],
    ['srcset', 'passive'],
  ],
  track: [['src', 'passive']],
};

/** The URLs of a srcset: each candidate is a URL and an optional descriptor. */
const srcsetUrls = (value: string) =>
  value
    .split(',')
    .map((candidate) => candidate.trim().split(/\s+/)[0] ?? '')
    .filter(Boolean);

/** Extracts what the checks need from HTML in one streaming pass. */
export function parseHtml(html: string): HtmlFacts {
  const facts: HtmlFacts = {
    scripts: [],
    inlineScripts: [],
    scriptPreloads: [],
    httpEquiv: {},
    metaNames: {},
    resourceUrls: [],
    attributeNames: new Set(),
    elementIds: new Set(),
    subresources: [],
    links: [],
    passwordField: false,
  };
  let navDepth = 0;
  let form: Subresource | null = null;
  let inline: InlineScript | null = null;
  const push = (bucket: Record<string, string[]>, key: string, value: string) => {
    const values = bucket[key] ?? [];
    values.push(value);
    bucket[key] = values;
  };
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        for (const attr of Object.keys(attrs)) facts.attributeNames.add(attr.toLowerCase());
        if (attrs.id) facts.elementIds.add(attrs.id);
        if (name === 'script') {
          if (attrs.src) facts.scripts.push({ src: attrs.src.trim(), integrity: attrs.integrity ?? null });
          else inline = { type: attrs.type?.trim().toLowerCase() || null, text: '' };
        }
        if (name === 'meta') {
          const equiv = attrs['http-equiv'];
          if (equiv && attrs.content !== undefined) push(facts.httpEquiv, equiv.toLowerCase(), attrs.content);
          if (attrs.name && attrs.content !== undefined) push(facts.metaNames, attrs.name.toLowerCase(), attrs.content);
        }
        for (const attr of ['src', 'href']) {
          const value = attrs[attr];
          if (value && ['script', 'link', 'img', 'iframe', 'a'].includes(name)) facts.resourceUrls.push(value);
        }
        for (const [attr, kind] of SUBRESOURCE_ATTRIBUTES[name] ?? []) {
          const value = attrs[attr]?.trim();
          if (!value) continue;
          for (const url of attr === 'srcset' ? srcsetUrls(value) : [value])
            facts.subresources.push({ kind, source: `${name}[${attr}]`, url });
        }
        if (name === 'link' && attrs.href && /(^|\s)stylesheet(\s|$)/i.test(attrs.rel ?? ''))
          facts.subresources.push({ kind: 'active', source: 'link[href]', url: attrs.href.trim() });
        if (
          name === 'link' &&
          attrs.href &&
          (/(^|\s)modulepreload(\s|$)/i.test(attrs.rel ?? '') ||
            (/(^|\s)preload(\s|$)/i.test(attrs.rel ?? '') && attrs.as === 'script'))
        ) {
          facts.scriptPreloads.push(attrs.href.trim());
        }
        if (name === 'form') {
          form = { kind: 'form', source: 'form[action]', url: (attrs.action ?? '').trim(), password: false };
          facts.subresources.push(form);
        }
        if (name === 'nav' || name === 'header') navDepth++;
        if (name === 'a' && attrs.href?.trim()) facts.links.push({ href: attrs.href.trim(), nav: navDepth > 0 });
        if (name === 'input' && (attrs.type ?? '').toLowerCase() === 'password') {
          facts.passwordField = true;
          if (form) form.password = true;
        }
      },
      ontext(text) {
        if (inline) inline.text += text;
      },
      onclosetag(name) {
        if (name === 'form') form = null;
        if ((name === 'nav' || name === 'header') && navDepth > 0) navDepth--;
        if (name === 'script' && inline) {
          facts.inlineScripts.push(inline);
          inline = null;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return facts;
}

const STATIC_PATH = /\.(js|css|png|jpe?g|gif|svg|webp|ico|woff2?|ttf|map|txt|xml|json|pdf)$/i;

/** Same-origin page paths the page refers to (not itself, not assets or /_next/), first `max` in document order. */
export function linkedPaths(pageUrl: string, facts: HtmlFacts, max: number): string[] {
  const origin = new URL(pageUrl).origin;
  const linked = new Set<string>();
  for (const raw of facts.resourceUrls) {
    try {
      const url = new URL(raw, pageUrl);
      if (
        url.origin !== origin ||
        url.pathname === '/' ||
        url.pathname.startsWith('/_next/') ||
        STATIC_PATH.test(url.pathname)
      )
        continue;
      linked.add(url.pathname);
    } catch {
      // An unparsable link is skipped.
    }
  }
  return [...linked].slice(0, max);
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

export function isHtmlContentType(contentType: string | null): boolean {
  if (!contentType) return true;
  return HTML_TYPES.has(contentType.split(';')[0]!.trim().toLowerCase());
}

/**
 * True when a body is an HTML document (error pages, SPA shells), whatever its content type. PHP and
 * database errors are often printed before the document starts, so the markup may follow other text.
 */
export function looksLikeHtml(body: string): boolean {
  const head = body.slice(0, 4096);
  // Leading comments skipped with indexOf, not a repeated lazy group (quadratic on many "<!--").
  const blanks = (from: number) => {
    let i = from;
    while (i < head.length && /\s/.test(head[i]!)) i++;
    return i;
  };
  let at = blanks(0);
  while (head.startsWith('<!--', at)) {
    const end = head.indexOf('-->', at + 4);
    if (end < 0) break;
    at = blanks(end + 3);
  }
  if (/^(<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(head.slice(at))) return true;
  if (/<!doctype\s+html[\s>]/i.test(head)) return true;
  const html = head.search(/<html[\s>]/i);
  return html >= 0 && /<\/?(head|body)[\s>]/i.test(head.slice(html));
}
