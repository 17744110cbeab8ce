import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { EXPOSURE_RULES, confirmsExposure, type ExposureType } from '../scanner/probes/exposure-rules.ts';
import { looksLikeHtml } from '../scanner/probes/html.ts';
import { scanSite } from '../scanner/index.ts';
import type { FetchedResponse } from '../scanner/types.ts';
import * as nf from './data/exposures/not-found-pages.ts';
import * as real from './data/exposures/samples.ts';
import { startSite, type FixtureSite, type Reply, type Route, type SiteDefinition } from './support/fixture-sites.ts';

const reply = (body: string | Buffer, type: string, status = 200, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { 'content-type': type, ...headers },
  body,
});
const html = (body: string, status = 200) => reply(body, 'text/html; charset=UTF-8', status);
const text = (body: string) => reply(body, 'text/plain; charset=UTF-8');
const json = (body: string, type = 'application/json;charset=UTF-8') => reply(body, type);
const nonce = () => randomBytes(12).toString('base64url');
const HOME = html('<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1></body></html>');

interface Personality {
  name: string;
  site: SiteDefinition;
  /** The exposures a scan must report, as "type path". */
  exposures: string[];
}

const PERSONALITIES: Personality[] = [
  {
    name: 'Apache 2.4 with PHP 8.3 on Debian',
    site: {
      gzip: true,
      routes: {
        '/': HOME,
        '/info.php': html(real.PHPINFO_8),
        '/server-status': html(real.APACHE_SERVER_STATUS),
        '/uploads/': html(real.APACHE_AUTOINDEX),
        '/.htpasswd': reply(real.HTPASSWD, 'application/octet-stream'),
        '/.git/HEAD': text(real.GIT_DETACHED_HEAD),
        '/dump.sql': reply(real.MYSQLDUMP, 'application/sql'),
        '/backup.sql': html(real.PHP_ERROR_BEFORE_HTML),
        '/database.sql': html(real.SQL_ERROR_BEFORE_HTML),
        '/.env': html(nf.APACHE_403, 403),
      },
      fallback: html(nf.APACHE_404, 404),
    },
    exposures: [
      'exposed_phpinfo /info.php',
      'exposed_server_status /server-status',
      'directory_listing /uploads/',
      'exposed_htpasswd /.htpasswd',
      'exposed_git_head /.git/HEAD',
      'exposed_sql_dump /dump.sql',
    ],
  },
  {
    name: 'nginx 1.24 with autoindex and stub_status',
    site: {
      gzip: true,
      routes: {
        '/': HOME,
        '/files/': html(real.NGINX_AUTOINDEX),
        '/nginx_status': text(real.NGINX_STUB_STATUS),
        '/db.sql': reply(real.PG_DUMP, 'application/octet-stream'),
        '/database.sql': reply(real.PHPMYADMIN_DUMP, 'application/octet-stream'),
        '/phpinfo.php': html(real.PHPINFO_8_NO_BANNER),
      },
      fallback: html(nf.NGINX_404, 404),
    },
    exposures: [
      'directory_listing /files/',
      'exposed_server_status /nginx_status',
      'exposed_sql_dump /db.sql',
      'exposed_sql_dump /database.sql',
      'exposed_phpinfo /phpinfo.php',
    ],
  },
  {
    name: 'IIS 10 with directory browsing',
    site: { routes: { '/': HOME, '/backup/': html(real.IIS_DIRECTORY_BROWSING) }, fallback: html(nf.IIS_404, 404) },
    exposures: ['directory_listing /backup/'],
  },
  {
    name: 'Spring Boot 1.5 with open actuators and springfox',
    site: {
      gzip: true,
      routes: {
        '/': HOME,
        '/env': json(real.ACTUATOR_1_ENV, 'application/vnd.spring-boot.actuator.v1+json;charset=UTF-8'),
        '/heapdump': reply(zlib.gzipSync(real.HPROF), 'application/octet-stream'),
        '/v2/api-docs': json(real.SPRINGFOX_SWAGGER),
      },
      fallback: (req) => reply(nf.springJsonError(req.url ?? '/'), 'application/json', 404),
    },
    exposures: ['exposed_actuator_env /env', 'exposed_heapdump /heapdump', 'exposed_api_spec /v2/api-docs'],
  },
  {
    name: 'Spring Boot 3 with open actuators and springdoc',
    site: {
      gzip: true,
      routes: {
        '/': HOME,
        '/actuator/env': json(real.ACTUATOR_3_ENV, 'application/vnd.spring-boot.actuator.v3+json'),
        '/actuator/heapdump': reply(real.HPROF, 'application/octet-stream'),
        '/v3/api-docs': json(real.SPRINGDOC_OPENAPI),
      },
      fallback: (req) => reply(nf.springJsonError(req.url ?? '/'), 'application/json', 404),
    },
    exposures: [
      'exposed_actuator_env /actuator/env',
      'exposed_heapdump /actuator/heapdump',
      'exposed_api_spec /v3/api-docs',
    ],
  },
  {
    name: 'WordPress 6.4 with Yoast SEO and a theme that answers 404s with 200',
    site: {
      gzip: true,
      routes: {
        '/': html(
          '<!doctype html><html><head><meta name="generator" content="WordPress 6.4.3"></head><body>Shop</body></html>',
        ),
        '/wp-json/wp/v2/users': json(real.WORDPRESS_USERS),
        '/xmlrpc.php': reply(real.WORDPRESS_XMLRPC_GET, 'text/plain;charset=UTF-8', 405, { allow: 'POST' }),
        '/wp-content/debug.log': text(real.WORDPRESS_DEBUG_LOG),
      },
      fallback: (req) => html(nf.themeNotFound(req.url ?? '/', nonce())),
    },
    exposures: [
      'wordpress_user_enumeration /wp-json/wp/v2/users',
      'wordpress_xmlrpc_enabled /xmlrpc.php',
      'exposed_debug_log /wp-content/debug.log',
    ],
  },
  {
    name: 'Laravel 10 with its log and .env in the web root',
    site: {
      routes: {
        '/': HOME,
        '/storage/logs/laravel.log': text(real.LARAVEL_LOG),
        '/.env': reply(real.LARAVEL_ENV, 'application/octet-stream'),
      },
      fallback: html(nf.LARAVEL_404, 404),
    },
    exposures: ['exposed_debug_log /storage/logs/laravel.log', 'exposed_env_file /.env'],
  },
  {
    name: 'a Vite app and a webpack bundle with source maps',
    site: {
      gzip: true,
      routes: {
        '/': html(
          '<!doctype html><html><head><script type="module" src="/assets/index-4f1a2b3c.js"></script><script src="/static/js/main.8a1b2c3d.js"></script></head><body><div id="root"></div></body></html>',
        ),
        '/assets/index-4f1a2b3c.js.map': json(real.VITE_SOURCE_MAP),
        '/static/js/main.8a1b2c3d.js.map': json(real.WEBPACK_SOURCE_MAP),
      },
      fallback: html(nf.NEXT_404, 404),
    },
    exposures: [
      'exposed_source_map /assets/index-4f1a2b3c.js.map',
      'exposed_source_map /static/js/main.8a1b2c3d.js.map',
    ],
  },
];

const redirectTo = (location: string): Reply => ({
  status: 302,
  headers: { location, 'content-type': 'text/html' },
  body: '',
});
const everything = (route: Route): SiteDefinition => ({ routes: { '/': HOME }, fallback: route, gzip: true });

/** Real not-found behaviours: none of them may produce an exposure. */
const NOT_FOUND_BEHAVIOURS: Array<[string, SiteDefinition]> = [
  ['nginx default 404', everything(html(nf.NGINX_404, 404))],
  ['Apache default 404', everything(html(nf.APACHE_404, 404))],
  ['IIS 404', everything(html(nf.IIS_404, 404))],
  ['Express "Cannot GET"', everything((req) => html(nf.expressNotFound(req.url ?? '/'), 404))],
  ['Spring Boot JSON error', everything((req) => reply(nf.springJsonError(req.url ?? '/'), 'application/json', 404))],
  ['Laravel 404', everything(html(nf.LARAVEL_404, 404))],
  ['Next.js 404', everything(html(nf.NEXT_404, 404))],
  [
    'theme 404 answered with 200, echoing path, time and a nonce',
    everything((req) => html(nf.themeNotFound(req.url ?? '/', nonce()))),
  ],
  [
    'single-page app shell for every path',
    everything(
      html(
        '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body><div id="root"></div></body></html>',
      ),
    ),
  ],
  [
    'every unknown path redirected to /login',
    {
      routes: { '/': HOME, '/login': html('<!doctype html><html><body><form>Inloggen</form></body></html>') },
      fallback: redirectTo('/login'),
    },
  ],
  ['every unknown path redirected to /', everything({ ...redirectTo('/'), status: 301 })],
  ['Cloudflare block page (403)', everything(() => html(nf.cloudflareBlock(randomBytes(8).toString('hex')), 403))],
  [
    'Sucuri block page answered with 200',
    everything(() => html(nf.sucuriBlock(`${Date.now()}.${randomBytes(4).toString('hex')}`))),
  ],
  [
    '{"error":"not found"} with 200',
    everything((req) =>
      json(JSON.stringify({ error: 'not found', path: req.url, request_id: randomBytes(8).toString('hex') })),
    ),
  ],
  ['plain-text "Not Found" with 200', everything(text('Not Found'))],
];

const sites: FixtureSite[] = [];
afterAll(async () => Promise.all(sites.map((site) => site.close())));

async function exposuresOf(definition: SiteDefinition): Promise<string[]> {
  const site = await startSite(definition);
  sites.push(site);
  const result = await scanSite(site.url, { allowPrivateTargets: true });
  expect(result.failed_checks).toEqual([]);
  return result.findings
    .filter((f) => f.category === 'EXPOSED_ENDPOINT')
    .map((f) => `${f.finding_type} ${new URL(f.endpoint).pathname}`);
}

describe('exposures confirmed in the formats real servers serve', () => {
  it.each(PERSONALITIES)('$name', async ({ site, exposures }) => {
    expect((await exposuresOf(site)).sort()).toEqual([...exposures].sort());
  });
});

describe('zero false exposures on real not-found behaviours', () => {
  it.each(NOT_FOUND_BEHAVIOURS)('%s', async (_name, site) => {
    expect(await exposuresOf(site)).toEqual([]);
  });

  it('no rule confirms a not-found or error page, even one answered with 200', () => {
    const pages = [
      nf.NGINX_404,
      nf.APACHE_404,
      nf.APACHE_403,
      nf.IIS_404,
      nf.expressNotFound('/.env'),
      nf.springJsonError('/.git/config'),
      nf.LARAVEL_404,
      nf.NEXT_404,
      nf.themeNotFound('/.env', nonce()),
      nf.cloudflareBlock('8a1b2c3d'),
      nf.sucuriBlock('1705312800.abc'),
      real.PHP_ERROR_BEFORE_HTML,
      real.SQL_ERROR_BEFORE_HTML,
    ];
    const response = (body: string): FetchedResponse => ({
      url: 'https://example.nl/x',
      status: 200,
      headers: { 'content-type': ['text/html'] },
      body: Buffer.from(body),
    });
    const confirmed = pages.flatMap((page, i) =>
      (Object.keys(EXPOSURE_RULES) as ExposureType[])
        .filter((type) => confirmsExposure(type, response(page), looksLikeHtml))
        .map((type) => `${type} on page ${i}`),
    );
    expect(confirmed).toEqual([]);
  });
});
