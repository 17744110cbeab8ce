import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanSite, type ScanResult } from '../../scanner/index.ts';
import { inUseAt, shippedData, type VulnerabilityDataInUse } from '../../scanner/vulndata/dataset.ts';
import { readOnlyProxy, type ReadOnlyProxy } from '../support/read-only-proxy.ts';
import { startWordPress, wordpressAvailable, type WordPressSite } from '../support/wordpress-server.ts';

// Debian's wordpress package (6.1.9, with fixes backported from 6.8.3) on Apache with mod_php and
// MariaDB, a fixture plugin and theme at versions Wordfence lists, and Debian's libjs-lodash
// through its /javascript/ alias; scanned through a proxy that passes GET and HEAD only.

const THEME = {
  'themes/twentyfifteen/style.css':
    '/*\nTheme Name: Twenty Fifteen\nAuthor: the WordPress team\nVersion: 1.1\nLicense: GPLv2 or later\n*/\nbody { color: #333; }\n',
  'themes/twentyfifteen/index.php':
    "<!DOCTYPE html><html <?php language_attributes(); ?>><head><?php wp_head(); ?></head><body><h1><?php bloginfo('name'); ?></h1><?php wp_footer(); ?></body></html>\n",
  'themes/twentyfifteen/functions.php':
    "<?php add_action('wp_enqueue_scripts', function () { wp_enqueue_style('twentyfifteen-style', get_stylesheet_uri(), [], '20221101'); });\n",
};
const PLUGIN = {
  'plugins/contact-form-7/wp-contact-form-7.php': `<?php
/*
Plugin Name: Contact Form 7
Version: 5.3.1
*/
add_action('wp_enqueue_scripts', function () {
  // Enqueued without a version, so WordPress adds its own: the page's ?ver= is the core's.
  wp_enqueue_style('contact-form-7', plugins_url('includes/css/styles.css', __FILE__));
  // Debian's own lodash, from libjs-lodash.
  wp_enqueue_script('lodash-debian', '/javascript/lodash/lodash.min.js', [], null);
});
`,
  'plugins/contact-form-7/includes/css/styles.css': '.wpcf7 { margin: 0; }\n',
  'plugins/contact-form-7/readme.txt':
    '=== Contact Form 7 ===\nContributors: takayukister\nStable tag: 5.3.1\nLicense: GPLv2 or later\n\nJust another contact form plugin.\n',
};

const fresh = (): VulnerabilityDataInUse => {
  const shipped = shippedData();
  return inUseAt(shipped, Date.parse(shipped.retire!.info.updated_at) + 86_400_000);
};
/** The shipped records and one more that names 6.1.9 itself, so the core's version shows in a finding. */
const withRecordFor619 = (): VulnerabilityDataInUse => {
  const inUse = fresh();
  const wordfence = inUse.data.wordfence!;
  const record = {
    id: 'test-6.1.9',
    title: 'WordPress Core 6.1 - 6.1.9 (test record)',
    cve: null,
    score: 5,
    ranges: [['6.1', true, '6.1.9', true]] as Array<[string, boolean, string, boolean]>,
    patched: ['6.1.10'],
  };
  const data = { ...wordfence.data, 'core:wordpress': [...(wordfence.data['core:wordpress'] ?? []), record] };
  return { ...inUse, data: { ...inUse.data, wordfence: { ...wordfence, data } } };
};

const available = wordpressAvailable();
if (!available && process.env.CI)
  throw new Error(
    'Debian packages wordpress, libapache2-mod-php, php-mysql, mariadb-server and libjs-lodash are needed (.ci/run installs them)',
  );

describe.runIf(available)("Debian's WordPress 6.1.9", () => {
  let site: WordPressSite;
  let proxy: ReadOnlyProxy;
  let result: ScanResult;
  beforeAll(async () => {
    // WordPress names the proxy as its home, so every URL on its pages leads through it.
    site = await startWordPress(
      { ...THEME, ...PLUGIN },
      ['contact-form-7/wp-contact-form-7.php'],
      'twentyfifteen',
      async (apache) => {
        proxy = await readOnlyProxy(apache);
        return proxy.url;
      },
    );
    result = await scanSite(proxy.url, { allowPrivateTargets: true, vulnerabilityData: fresh() });
  });
  afterAll(async () => {
    await proxy?.close();
    await site?.close();
  });

  const of = (r: ScanResult, prefix: string) => r.findings.filter((f) => f.finding_type.startsWith(prefix));

  it('is WordPress, and its backported core matches no 6.1.0-6.1.8 record', () => {
    expect(result.detected_platform).toBe('wordpress');
    expect(of(result, 'known_vulnerable_wordpress_core_')).toEqual([]);
  });

  it('reads the core version from more than one source', async () => {
    const again = await scanSite(proxy.url, { allowPrivateTargets: true, vulnerabilityData: withRecordFor619() });
    const [core] = of(again, 'known_vulnerable_wordpress_core_');
    expect(core!.actual_value).toContain('WordPress wordpress 6.1.9 (exacte versie: generator-meta van de pagina');
    expect(core!.actual_value).toContain('Ook gezien: <generator> van de RSS-feed (6.1.9)');
    expect(core!.actual_value).toContain('Ook gezien: ?ver= in de URL (6.1.9)');
  });

  it('finds the plugin through its readme.txt, one level lower, and the theme through style.css', () => {
    const [plugin] = of(result, 'known_vulnerable_wordpress_plugin_');
    expect(plugin).toMatchObject({
      severity: 'HIGH',
      endpoint: `${new URL(proxy.url).origin}/wp-content/plugins/contact-form-7/`,
    });
    expect(plugin!.actual_value).toContain('contact-form-7 5.3.1 (afgeleide versie: "Stable tag" in readme.txt');
    const [theme] = of(result, 'known_vulnerable_wordpress_theme_');
    expect(theme!.actual_value).toContain('twentyfifteen 1.1 (exacte versie: Version: in style.css van het thema');
  });

  it("rates Debian's backported lodash at most LOW", () => {
    const lodash = of(result, 'known_vulnerable_javascript_library_').find((f) => f.endpoint.includes('#lodash@'));
    expect(lodash).toMatchObject({ severity: 'LOW' });
    expect(lodash!.actual_value).toContain('/javascript/lodash/lodash.min.js');
    expect(lodash!.actual_value).toContain('ernst ten hoogste LOW');
  });

  it('sent only GET and HEAD', () => {
    expect(proxy.passed.length).toBeGreaterThan(20);
    expect(proxy.refused).toEqual([]);
  });
});
