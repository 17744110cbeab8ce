import { describe, expect, it } from 'vitest';
import { toHeaderMap } from './support/headers.ts';
import { parseHtml } from '../scanner/probes/html.ts';
import { detectSitePlatform } from '../scanner/probes/site-platform.ts';

function detect(html: string, headers: Record<string, string | string[]> = {}, url = 'https://example.nl/') {
  const page = {
    url,
    status: 200,
    headers: toHeaderMap({ 'content-type': 'text/html', ...headers }),
    html,
    requestOrigin: 'x',
  };
  return detectSitePlatform(page, parseHtml(html));
}

describe('platform detection', () => {
  it.each([
    [
      'wordpress',
      '<meta name="generator" content="WordPress 6.5"><link href="/wp-content/themes/a/style.css" rel="stylesheet">',
      {},
    ],
    ['wordpress', '<p>hi</p>', { link: '<https://example.nl/wp-json/>; rel="https://api.w.org/"' }],
    [
      'nextjs',
      '<script id="__NEXT_DATA__" type="application/json">{}</script><script src="/_next/static/chunks/main.js"></script>',
      {},
    ],
    ['nextjs', '<div></div>', { 'x-powered-by': 'Next.js' }],
    ['webflow', '<html data-wf-site="abc" data-wf-page="def"><meta name="generator" content="Webflow"></html>', {}],
    [
      'lovable',
      '<script type="module" src="https://cdn.gpteng.co/gptengineer.js"></script><meta name="author" content="Lovable">',
      {},
    ],
    [
      'lovable',
      '<meta property="og:image" content="/lovable-uploads/abc.png"><meta name="generator" content="Lovable">',
      {},
    ],
  ])('recognises %s', (platform, html, headers) => {
    expect(detect(html, headers)).toBe(platform);
  });

  it('returns null for a page without fingerprints', () => {
    expect(
      detect('<html><head><title>Bakkerij</title></head><body><script src="/app.js"></script></body></html>'),
    ).toBeNull();
  });

  it('does not take a blog post that mentions WordPress for a WordPress site', () => {
    expect(detect('<p>Waarom wij geen WordPress gebruiken en ook geen Webflow</p>')).toBeNull();
  });
});
