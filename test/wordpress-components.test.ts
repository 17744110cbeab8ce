import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanSite, type ScanResult } from '../scanner/index.ts';
import { inUseAt, shippedData, type VulnerabilityDataInUse } from '../scanner/vulndata/dataset.ts';
import { startSite, type FixtureSite, type Reply } from './support/fixture-sites.ts';

// A WordPress site as WordPress 6.1 renders it (generator meta, the emoji loader's settings with
// its ?ver=, its own jQuery, plugin and theme assets), with its feed, REST index, a plugin readme
// and the theme's style.css. The plugin enqueues its script without a version, so WordPress adds
// its own: that ?ver= is not the plugin's, and only the readme's "Stable tag" tells it.

const html = (core: string) => `<!DOCTYPE html>
<html lang="nl-NL">
<head>
<meta charset="UTF-8" />
<title>Bakkerij &#8211; Vers brood</title>
<meta name='robots' content='max-image-preview:large' />
<link rel="alternate" type="application/rss+xml" title="Bakkerij &raquo; Feed" href="/?feed=rss2" />
<script>
window._wpemojiSettings = {"baseUrl":"https:\\/\\/s.w.org\\/images\\/core\\/emoji\\/14.0.0\\/72x72\\/","ext":".png","source":{"concatemoji":"http:\\/\\/bakkerij.test\\/wp-includes\\/js\\/wp-emoji-release.min.js?ver=${core}"}};
</script>
<link rel='stylesheet' id='wp-block-library-css' href='/wp-includes/css/dist/block-library/style.min.css?ver=${core}' media='all' />
<link rel='stylesheet' id='contact-form-7-css' href='/wp-content/plugins/contact-form-7/includes/css/styles.css?ver=${core}' media='all' />
<link rel='stylesheet' id='twentyfifteen-style-css' href='/wp-content/themes/twentyfifteen/style.css?ver=20221101' media='all' />
<script src='/wp-includes/js/jquery/jquery.min.js?ver=3.6.1' id='jquery-core-js'></script>
<link rel="https://api.w.org/" href="/index.php?rest_route=/" />
<meta name="generator" content="WordPress ${core}" />
</head>
<body class="home blog"><h1>Bakkerij</h1>
<script src='/wp-content/plugins/contact-form-7/includes/js/index.js?ver=${core}' id='contact-form-7-js'></script>
</body>
</html>`;

function wordpress(core: string): Promise<FixtureSite> {
  return startSite({
    gzip: true,
    routes: {
      '/': (req): Reply =>
        new URL(req.url ?? '/', 'http://x').searchParams.get('feed') === 'rss2'
          ? {
              headers: { 'content-type': 'application/rss+xml; charset=UTF-8' },
              body: `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Bakkerij</title><generator>https://wordpress.org/?v=${core}</generator></channel></rss>`,
            }
          : new URL(req.url ?? '/', 'http://x').searchParams.get('rest_route') === '/'
            ? {
                headers: { 'content-type': 'application/json; charset=UTF-8' },
                body: JSON.stringify({
                  name: 'Bakkerij',
                  namespaces: ['oembed/1.0', 'contact-form-7/v1', 'akismet/v1', 'wp/v2', 'wp-site-health/v1'],
                }),
              }
            : {
                headers: {
                  'content-type': 'text/html; charset=UTF-8',
                  link: '</index.php?rest_route=/>; rel="https://api.w.org/"',
                },
                body: html(core),
              },
      '/wp-content/plugins/contact-form-7/readme.txt': {
        headers: { 'content-type': 'text/plain' },
        body: '=== Contact Form 7 ===\nContributors: takayukister\nTags: contact, form\nRequires at least: 5.5\nTested up to: 5.6\nStable tag: 5.3.1\nLicense: GPLv2 or later\n\nJust another contact form plugin.\n',
      },
      '/wp-content/plugins/akismet/readme.txt': {
        headers: { 'content-type': 'text/plain' },
        body: '=== Akismet Anti-Spam ===\nStable tag: 5.0.2\n',
      },
      '/wp-content/themes/twentyfifteen/style.css': {
        headers: { 'content-type': 'text/css' },
        body: '/*\nTheme Name: Twenty Fifteen\nTheme URI: https://wordpress.org/themes/twentyfifteen/\nAuthor: the WordPress team\nVersion: 1.1\nLicense: GNU General Public License v2 or later\n*/\nbody { color: #333; }\n',
      },
    },
  });
}

const shipped = () => inUseAt(shippedData(), Date.parse(shippedData().retire!.info.updated_at) + 86_400_000);
/** The same records, as if the full feed were loaded (an operator's import or the key's download). */
const asFullFeed = (): VulnerabilityDataInUse => {
  const inUse = shipped();
  const wordfence = inUse.data.wordfence!;
  return {
    data: { ...inUse.data, wordfence: { ...wordfence, info: { ...wordfence.info, complete: true } } },
    ageDays: { ...inUse.ageDays, wordfence: 0 },
  };
};

const parts = (result: ScanResult) =>
  result.findings
    .filter((f) => f.finding_type.startsWith('known_vulnerable_wordpress_'))
    .map((f) => [f.finding_type, f.endpoint.replace(/^http:\/\/127\.0\.0\.1:\d+/, '')]);

let current: FixtureSite;
let older: FixtureSite;
beforeAll(async () => {
  [current, older] = await Promise.all([wordpress('6.1.9'), wordpress('6.1.8')]);
});
afterAll(async () => Promise.all([current.close(), older.close()]));

const scan = (site: FixtureSite, data = shipped()) =>
  scanSite(site.url, { allowPrivateTargets: true, probeExposures: false, vulnerabilityData: data });

describe('WordPress core, plugins and themes', () => {
  it('leaves a backport release clean, and reports the plugin by its readme and the theme by its style.css', async () => {
    const result = await scan(current);
    expect(parts(result).sort()).toEqual([
      ['known_vulnerable_wordpress_plugin_high', '/wp-content/plugins/contact-form-7/'],
      ['known_vulnerable_wordpress_theme_medium', '/wp-content/themes/twentyfifteen/'],
    ]);
    const plugin = result.findings.find((f) => f.endpoint.endsWith('/contact-form-7/'))!;
    // CVSS 10 is CRITICAL; a version from the readme is inferred, so one level lower.
    expect(plugin.actual_value).toContain(
      'WordPress-plugin contact-form-7 5.3.1 (afgeleide versie: "Stable tag" in readme.txt',
    );
    expect(plugin.actual_value).toContain('Versie 5.3.1 gemeld door Wordfence Intelligence');
    expect(plugin.actual_value).toContain('CVE-2020-35489 (CRITICAL), opgelost in 5.3.2');
    expect(plugin.actual_value).toMatch(/^Oplossing: contact-form-7 5\.3\.1 → 5\.3\.2$/m);
    const theme = result.findings.find((f) => f.endpoint.endsWith('/twentyfifteen/'))!;
    expect(theme.actual_value).toContain('twentyfifteen 1.1 (exacte versie: Version: in style.css van het thema');
    // WordPress's jQuery 3.6.1 (its ?ver=) has no advisory; WordPress's own ?ver= is never taken for a plugin.
    expect(result.findings.filter((f) => f.finding_type.startsWith('known_vulnerable_javascript_library_'))).toEqual(
      [],
    );
  });

  it('reports the core of an unpatched release from its generator, exact, naming the backport', async () => {
    const result = await scan(older);
    const core = result.findings.find((f) => f.finding_type.startsWith('known_vulnerable_wordpress_core_'))!;
    expect(core).toMatchObject({
      finding_type: 'known_vulnerable_wordpress_core_medium',
      endpoint: expect.stringMatching(/#wordpress$/),
    });
    expect(core.actual_value).toContain('WordPress wordpress 6.1.8 (exacte versie: generator-meta van de pagina');
    expect(core.actual_value).toContain('CVE-2025-58674 (MEDIUM), opgelost in 6.1.9');
    // The feed and the emoji loader's ?ver= said the same.
    expect(core.actual_value).toContain('Ook gezien: <generator> van de RSS-feed (6.1.8)');
    expect(core.actual_value).toContain('Ook gezien: ?ver= in de URL (6.1.8)');
    expect(core.actual_value).toMatch(/^Oplossing: wordpress 6\.1\.8 → 6\.1\.9$/m);
  });

  it('asks at most 14 more things, all with GET, and guesses no slugs', async () => {
    const before = current.requests.length;
    await scan(current);
    // Every request after the page itself (the fixture logs paths without their query, so the feed's
    // and the REST index's query forms count as "GET /" too), WordPress's own jQuery script aside.
    const sent = current.requests.slice(before);
    sent.splice(sent.indexOf('GET /'), 1);
    const asked = sent.filter((r) => !r.includes('/wp-includes/js/jquery/'));
    expect(asked.every((r) => r.startsWith('GET '))).toBe(true);
    // The feed and the REST index (their query forms), two readmes, one style.css, and the page's own plugin script.
    expect(asked.length).toBeLessThanOrEqual(14);
    expect(asked.filter((r) => r.includes('/wp-content/plugins/')).sort()).toEqual(
      expect.arrayContaining([
        'GET /wp-content/plugins/akismet/readme.txt',
        'GET /wp-content/plugins/contact-form-7/readme.txt',
      ]),
    );
  });

  it('is no all-clear on the shipped excerpt, and completes with the full feed', async () => {
    const excerpt = await scan(current);
    expect(excerpt.coverage.find((c) => c.test === 'wordpress_components')).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining('alleen een deel van de gegevens van Wordfence is geladen'),
    });
    expect(excerpt.failed_checks).toContain('wordpress_components');
    const full = await scan(current, asFullFeed());
    expect(full.coverage.find((c) => c.test === 'wordpress_components')).toMatchObject({ status: 'completed' });
    expect(parts(full)).toEqual(parts(excerpt));
  });
});
