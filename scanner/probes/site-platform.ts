import { headerValues } from '../net/headers.ts';
import type { HtmlFacts } from './html.ts';
import type { PageEvidence } from '../types.ts';
import { SITE_PLATFORMS, type SitePlatform } from '../vocabulary.ts';

interface Signals {
  headers: string;
  cookies: string;
  generator: string;
  urls: string;
  html: string;
  facts: HtmlFacts | null;
  host: string;
}

// Fingerprints after Wappalyzer's technology definitions; each matching signal adds one point.
const FINGERPRINTS: Record<SitePlatform, Array<(s: Signals) => boolean>> = {
  wordpress: [
    (s) => /wordpress/i.test(s.generator),
    (s) => /\/wp-(content|includes)\//.test(s.urls),
    (s) => /rel="https:\/\/api\.w\.org\/"/.test(s.headers),
    (s) => /(^|;)\s*(wordpress_|wp-settings-)/m.test(s.cookies),
    (s) => /x-pingback: .*xmlrpc\.php/i.test(s.headers),
  ],
  nextjs: [
    (s) => s.facts?.elementIds.has('__NEXT_DATA__') ?? false,
    (s) => /\/_next\/static\//.test(s.urls),
    (s) => /x-powered-by: next\.js/i.test(s.headers),
    (s) => /^x-nextjs-/im.test(s.headers),
  ],
  webflow: [
    (s) => /webflow/i.test(s.generator),
    (s) => s.facts?.attributeNames.has('data-wf-site') ?? false,
    (s) => /(website-files\.com|webflow\.com)\//.test(s.urls),
  ],
  lovable: [
    (s) => /cdn\.gpteng\.co\/gptengineer\.js/.test(s.urls) || /gptengineer/i.test(s.html),
    (s) => /\.lovable\.app$/i.test(s.host),
    (s) => /lovable/i.test([...(s.facts?.metaNames.author ?? []), s.generator].join(' ')),
    (s) => /lovable\.dev\//.test(s.html) || /lovable-tagger|lovable-badge|\/lovable-uploads\//i.test(s.html),
  ],
};

/** The platform with the most matching fingerprints, or null when none matches. */
export function detectSitePlatform(page: PageEvidence | null, facts: HtmlFacts | null): SitePlatform | null {
  if (!page) return null;
  const signals: Signals = {
    headers: Object.entries(page.headers)
      .map(([name, values]) => values.map((v) => `${name}: ${v}`).join('\n'))
      .join('\n'),
    cookies: headerValues(page.headers, 'set-cookie').join('\n'),
    generator: (facts?.metaNames.generator ?? []).join(' '),
    urls: (facts?.resourceUrls ?? []).join('\n'),
    html: page.html ?? '',
    facts,
    host: new URL(page.url).hostname,
  };
  let best: SitePlatform | null = null;
  let bestScore = 0;
  for (const platform of SITE_PLATFORMS) {
    const score = FINGERPRINTS[platform].filter((matches) => matches(signals)).length;
    if (score > bestScore) [best, bestScore] = [platform, score];
  }
  return best;
}
