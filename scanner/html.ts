import { Parser } from 'htmlparser2';

export interface ScriptTag {
  src: string;
  integrity: string | null;
}

export interface HtmlFacts {
  scripts: ScriptTag[];
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
}

/** Extracts what the checks need from HTML in one streaming pass. */
export function parseHtml(html: string): HtmlFacts {
  const facts: HtmlFacts = {
    scripts: [],
    httpEquiv: {},
    metaNames: {},
    resourceUrls: [],
    attributeNames: new Set(),
    elementIds: new Set(),
  };
  const push = (bucket: Record<string, string[]>, key: string, value: string) => {
    (bucket[key] ??= []).push(value);
  };
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        for (const attr of Object.keys(attrs)) facts.attributeNames.add(attr.toLowerCase());
        if (attrs.id) facts.elementIds.add(attrs.id);
        if (name === 'script') {
          if (attrs.src) facts.scripts.push({ src: attrs.src.trim(), integrity: attrs.integrity ?? null });
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
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return facts;
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
  return /^\s*(<!--[\s\S]*?-->\s*)*(<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(head) || /<!doctype\s+html[\s>]|<html[\s>][\s\S]*<\/?(head|body)[\s>]/i.test(head);
}
