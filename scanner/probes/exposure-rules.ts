// What counts as a confirmed exposure: every rule checks content, as nuclei templates do, never status
// alone. The formats follow their sources (php-src ext/standard/info.c, Apache mod_status and
// mod_autoindex, IIS directory browsing, Spring Boot actuator 1.x and 2.x+, WordPress core, git,
// mysqldump/pg_dump/phpMyAdmin). Where a document is large (source maps, user lists, OpenAPI), the
// rule confirms from a bounded prefix instead of parsing the whole document.

import type { FindingType } from '../catalog/index.ts';
import type { FetchedResponse } from '../net/http-evidence.ts';

export interface ExposureRule {
  confirm: (body: Buffer, text: string) => boolean;
  /** Whether the evidence is itself an HTML page (phpinfo, listings); otherwise HTML answers are ignored. */
  html?: boolean;
  /** Statuses that can carry the evidence; 2xx when absent. */
  statuses?: readonly number[];
  /** Bytes to read; 16 KiB when absent. */
  maxBytes?: number;
}

export const DEFAULT_PROBE_BYTES = 16 * 1024;
const LARGE_PREFIX_BYTES = 64 * 1024;

const startsWithBytes =
  (...bytes: number[]) =>
  (body: Buffer) =>
    bytes.every((b, i) => body[i] === b);
const ascii = (text: string) => Buffer.from(text, 'latin1');
const startsWithText = (prefix: string) => (body: Buffer) => body.subarray(0, prefix.length).equals(ascii(prefix));

const ENV_LINE = /^\s*(export\s+)?[A-Z][A-Z0-9_]*\s*=.*$/;

/** Dotenv content: two or more KEY=value lines, or a short file made only of such lines and comments. */
function isDotenv(text: string): boolean {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const assignments = lines.filter((line) => ENV_LINE.test(line)).length;
  return (
    assignments >= 2 || (assignments === lines.length && assignments > 0 && lines.length <= 5 && text.length < 2048)
  );
}
const PEM_PRIVATE_KEY = /-----BEGIN (RSA |DSA |EC |OPENSSH |ENCRYPTED )?PRIVATE KEY-----/;
const isZip = startsWithBytes(0x50, 0x4b, 0x03, 0x04);
const isGzip = startsWithBytes(0x1f, 0x8b);
const isSevenZip = startsWithBytes(0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c);
const isRar = startsWithText('Rar!\x1a\x07');
const isSqlite = startsWithText('SQLite format 3\0');
const isVimSwap = startsWithText('b0VIM');
const isHprof = startsWithText('JAVA PROFILE 1.0');

/** JSON documents may carry an anti-XSSI prefix such as )]}' before the value. */
const jsonStart = (text: string) => text.replace(/^\uFEFF?\s*(\)\]\}'[^\n]*\n)?\s*/, '');

// phpinfo(): "<title>PHP 8.3.4 - phpinfo()</title>" (PHP 5.x: "<title>phpinfo()</title>"),
// "<h1 class=\"p\">PHP Version 8.3.4</h1>" or, without the banner, a "PHP Version" row; the text
// variant (CLI, phpinfo_as_text) prints "PHP Version => 8.3.4".
const PHPINFO_BANNERS = [
  /<title>\s*(PHP \d[^<]{0,40} - )?phpinfo\(\)\s*<\/title>/i,
  /<h1 class="p">\s*PHP Version \d/i,
  /<td class="e">\s*PHP Version\s*<\/td>\s*<td class="v">\s*\d/i,
  /^PHP Version => \d/m,
];
const PHPINFO_ROWS =
  /<td class="e">\s*(System|Build Date|Server API|Configure Command|Loaded Configuration File|Zend Extension)\s*<\/td>|^(System|Server API) => /m;

// Directory listings: Apache mod_autoindex and nginx/lighttpd ("Index of /"), Python http.server,
// Tomcat ("Directory Listing For [/x/]"), Jetty ("Directory: /x/"), Express serve-index
// ("listing directory /x/") and IIS directory browsing ("host - /x/" with a <pre> of
// "[To Parent Directory]" and "&lt;dir&gt;" rows).
const LISTING_TITLES =
  /<(title|h1)>\s*(Index of \/|Directory listing for \/|Directory Listing For \[\/|Directory: \/|listing directory \/)/i;
const IIS_PARENT = /<pre>\s*<A HREF="[^"]*">\[To Parent Directory\]<\/A>/i;
const IIS_TITLE = /<title>[^<]{0,300} - \/[^<]{0,300}<\/title>/i;
const IIS_ROW = /&lt;dir&gt;|\d{1,2}:\d{2} [AP]M\s+\d+ <A HREF=/i;
/** IIS directory browsing: the parent link in a <pre>, or its "host - /x/" title with a <pre> of rows after it (found with indexOf: linear). */
const iisListing = (t: string) => {
  if (IIS_PARENT.test(t)) return true;
  const title = IIS_TITLE.exec(t);
  const pre = title ? t.toLowerCase().indexOf('<pre>', title.index) : -1;
  return pre >= 0 && IIS_ROW.test(t.slice(pre));
};

// SQL dumps: the headers of mysqldump, MariaDB, pg_dump, phpMyAdmin, Adminer and sqlite3 .dump, or
// at least two kinds of statements at the start of a line, as a dump writes them.
const SQL_DUMP_HEADER =
  /^-- (MySQL dump|MariaDB dump|phpMyAdmin SQL Dump|Adminer \S+ \w+ dump)|^-- PostgreSQL database dump|^PRAGMA foreign_keys=OFF;\s*\n\s*BEGIN TRANSACTION;/m;
const SQL_STATEMENTS = [
  /^CREATE TABLE (IF NOT EXISTS )?[`"[]?\w/m,
  /^INSERT INTO [`"[]?\w+[`"\]]?\s*(\(|VALUES)/im,
  /^DROP TABLE IF EXISTS /m,
  /^(\/\*!\d{5} )?SET (NAMES|SQL_MODE|FOREIGN_KEY_CHECKS|time_zone|statement_timeout|client_encoding)\b/m,
  /^COPY [\w.]+ \([^)]*\) FROM stdin;/m,
  /^LOCK TABLES /m,
];
const isSqlDump = (text: string) =>
  SQL_DUMP_HEADER.test(text) || SQL_STATEMENTS.filter((statement) => statement.test(text)).length >= 2;

// Spring Boot actuator env: 2.x+ {"activeProfiles":[...],"propertySources":[...]};
// 1.x /env {"profiles":[...],"server.ports":{...},"systemProperties":{...},"systemEnvironment":{...}}.
const ACTUATOR_ENV = /"(activeProfiles|propertySources)"\s*:\s*\[/;
const ACTUATOR_1_ENV = /^\{\s*"profiles"\s*:\s*\[/;
const ACTUATOR_1_SECTIONS = /"(systemProperties|systemEnvironment|servletContextInitParams|applicationConfig: \[)/;

// .htpasswd lines: bcrypt, apr1-MD5, SHA-crypt, {SHA} and the 13-character DES crypt of old Apache.
const HTPASSWD_LINE = /^[^:\s#]+:(\$apr1\$|\$2[aby]\$|\$[156]\$|\{SHA\}|[./0-9A-Za-z]{13}\s*$)/m;

export const EXPOSURE_RULES = {
  // Blanks within the line only: `\s*` at every line start would cross a run of empty lines again and again.
  exposed_git_config: { confirm: (_, t) => /^[ \t]*\[(core|remote "[^"\n]*"|branch "[^"\n]*")\][ \t]*\r?$/m.test(t) },
  // A branch ref, or a detached HEAD: a bare SHA-1 or SHA-256 commit id.
  exposed_git_head: {
    confirm: (_, t) => /^ref:\s*refs\/[\w./-]+$/.test(t.trim()) || /^([0-9a-f]{40}|[0-9a-f]{64})$/.test(t.trim()),
  },
  exposed_git_index: { confirm: startsWithText('DIRC') },
  // .svn/entries starts with its format number (8-12); since 1.7 it holds only "12" beside wc.db.
  exposed_svn: { confirm: (b, t) => isSqlite(b) || /^(8|9|10|11|12)\r?\n(\r?\ndir\r?\n|\s*$)/.test(t) },
  exposed_hg: { confirm: (_, t) => /^\s*\[(paths|ui|extensions)\]/m.test(t) },
  exposed_env_file: { confirm: (_, t) => isDotenv(t) },
  exposed_aws_credentials: { confirm: (_, t) => /^\s*aws_(access_key_id|secret_access_key)\s*=/im.test(t) },
  exposed_ds_store: { confirm: startsWithBytes(0x00, 0x00, 0x00, 0x01, 0x42, 0x75, 0x64, 0x31) },
  exposed_docker_compose: { confirm: (_, t) => /^services:\s*$/m.test(t) && /^\s+(image|build):/m.test(t) },
  exposed_private_key: { confirm: (_, t) => PEM_PRIVATE_KEY.test(t) },
  exposed_sql_dump: { confirm: (b, t) => isGzip(b) || isSqlDump(t) },
  exposed_backup_archive: { confirm: (b) => isZip(b) || isGzip(b) || isSevenZip(b) || isRar(b) },
  exposed_config_backup: {
    confirm: (b, t) =>
      (isVimSwap(b) && /<\?php|DB_PASSWORD/.test(t)) ||
      (/^\s*<\?php/.test(t) && /define\s*\(|\$[A-Za-z_]\w*\s*=/.test(t)),
  },
  exposed_phpinfo: {
    html: true,
    maxBytes: LARGE_PREFIX_BYTES,
    confirm: (_, t) => PHPINFO_BANNERS.some((banner) => banner.test(t)) && PHPINFO_ROWS.test(t),
  },
  // mod_status ("Apache Server Status for", or ?auto's "ServerVersion:"), mod_info, nginx stub_status.
  exposed_server_status: {
    html: true,
    confirm: (_, t) =>
      /Apache Server (Status|Information) for /i.test(t) ||
      /^Active connections: \d+\s*\nserver accepts handled requests/m.test(t) ||
      (/^ServerVersion: /m.test(t) && /^(Total Accesses|BusyWorkers): /m.test(t)),
  },
  exposed_actuator_env: {
    maxBytes: LARGE_PREFIX_BYTES,
    confirm: (_, t) => ACTUATOR_ENV.test(t) || (ACTUATOR_1_ENV.test(jsonStart(t)) && ACTUATOR_1_SECTIONS.test(t)),
  },
  // HPROF as written by the JVM (2.x+), or gzip-compressed HPROF (Spring Boot 1.x /heapdump).
  exposed_heapdump: { confirm: (b) => isHprof(b) || isGzip(b) },
  exposed_debug_log: {
    confirm: (_, t) =>
      /^\[\d{2}-\w{3}-\d{4} \d{2}:\d{2}:\d{2}[^\]]*\] PHP (Notice|Warning|Fatal error|Parse error|Deprecated|Stack trace):/m.test(
        t,
      ) ||
      /^\[\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}[^\]]*\]\s+\w+\.(EMERGENCY|ALERT|CRITICAL|ERROR|WARNING|NOTICE|INFO|DEBUG):/m.test(
        t,
      ),
  },
  // WordPress core writes id, name, url, description, link, slug first; plugins append large fields
  // (yoast_head) and may reorder keys, so the prefix of the first object is what is judged.
  wordpress_user_enumeration: {
    maxBytes: LARGE_PREFIX_BYTES,
    confirm: (_, t) => /^\[\s*\{/.test(jsonStart(t)) && /"id"\s*:\s*\d+/.test(t) && /"slug"\s*:\s*"[^"]+"/.test(t),
  },
  // WordPress answers GET with 405 (Allow: POST) since 4.x, and with 200 before that.
  wordpress_xmlrpc_enabled: {
    html: true,
    statuses: [200, 405],
    confirm: (_, t) => /XML-RPC server accepts POST requests only/.test(t),
  },
  exposed_htpasswd: { confirm: (_, t) => HTPASSWD_LINE.test(t) },
  exposed_git_credentials: { confirm: (_, t) => /^https?:\/\/[^\s:@/]+:[^\s@/]+@[^\s/]+/m.test(t) },
  exposed_npmrc: { confirm: (_, t) => /(_authToken|_auth|_password)\s*=\s*\S+/.test(t) },
  exposed_sftp_config: { confirm: (_, t) => /"password"\s*:/.test(t) && /"host"\s*:/.test(t) },
  exposed_ide_config: { confirm: (_, t) => /<project version="\d+"/.test(t) },
  // Swagger 2 ({"swagger":"2.0","info":...}) and OpenAPI 3 ({"openapi":"3.x","info":...}); springdoc
  // documents run to megabytes, so the first keys decide.
  exposed_api_spec: {
    maxBytes: LARGE_PREFIX_BYTES,
    confirm: (_, t) =>
      /^\{\s*"(swagger|openapi)"\s*:\s*"[23]\.\d/.test(jsonStart(t)) && /"(info|paths)"\s*:\s*\{/.test(t),
  },
  exposed_swagger_ui: {
    html: true,
    confirm: (_, t) => /<title>\s*Swagger UI\s*<\/title>|swagger-ui-bundle\.js/i.test(t),
  },
  graphql_introspection_enabled: { confirm: (_, t) => /"__schema"\s*:\s*\{/.test(t) && /"queryType"/.test(t) },
  directory_listing: { html: true, confirm: (_, t) => LISTING_TITLES.test(t) || iisListing(t) },
  // Source map v3: bundlers put "sources" and "sourcesContent" before "mappings", so a prefix with the
  // version and the sources list is enough.
  exposed_source_map: {
    maxBytes: LARGE_PREFIX_BYTES,
    confirm: (_, t) => {
      const body = jsonStart(t);
      return (
        body.startsWith('{') && /"version"\s*:\s*3\s*[,}]/.test(body) && /"(sources|mappings|sections)"\s*:/.test(body)
      );
    },
  },
  crossdomain_wildcard: { confirm: (_, t) => /<allow-access-from\s+domain="\*"/i.test(t) },
} as const satisfies Partial<Record<FindingType, ExposureRule>>;

export type ExposureType = keyof typeof EXPOSURE_RULES;

export const ruleFor = (type: ExposureType): ExposureRule => EXPOSURE_RULES[type];

/** Whether a probe's answer confirms its exposure: the status may carry evidence and the content matches. */
export function confirmsExposure(
  type: ExposureType,
  response: FetchedResponse,
  isHtml: (text: string) => boolean,
): boolean {
  const rule = ruleFor(type);
  const statusFits = rule.statuses
    ? rule.statuses.includes(response.status)
    : response.status >= 200 && response.status < 300;
  if (!statusFits) return false;
  const text = response.body.toString('utf8');
  if (!rule.html && isHtml(text)) return false;
  return rule.confirm(response.body, text);
}

export interface ExposureProbe {
  path: string;
  type: ExposureType;
  /** Query string of the GET (the GraphQL introspection query). */
  query?: string;
  /**
   * A JSON body to POST only when the endpoint refuses the GET (405, or 400 naming the method):
   * a site without the endpoint never receives anything but GET.
   */
  postOnRefusal?: string;
}

const GRAPHQL_QUERY = '{__schema{queryType{name}}}';
const GRAPHQL_INTROSPECTION = JSON.stringify({ query: GRAPHQL_QUERY });

const probe = (type: ExposureType, ...paths: string[]): ExposureProbe[] => paths.map((path) => ({ path, type }));

/** Curated paths that must never be public. */
export const EXPOSURE_PROBES: ExposureProbe[] = [
  ...probe('exposed_git_config', '/.git/config'),
  ...probe('exposed_git_head', '/.git/HEAD'),
  ...probe('exposed_git_index', '/.git/index'),
  ...probe('exposed_svn', '/.svn/entries', '/.svn/wc.db'),
  ...probe('exposed_hg', '/.hg/hgrc'),
  ...probe(
    'exposed_env_file',
    '/.env',
    '/.env.local',
    '/.env.production',
    '/.env.development',
    '/.env.backup',
    '/.env.bak',
    '/.env.old',
  ),
  ...probe('exposed_aws_credentials', '/.aws/credentials'),
  ...probe('exposed_ds_store', '/.DS_Store'),
  ...probe('exposed_docker_compose', '/docker-compose.yml', '/docker-compose.yaml'),
  ...probe('exposed_private_key', '/id_rsa', '/.ssh/id_rsa', '/.ssh/id_ed25519', '/server.key'),
  ...probe('exposed_sql_dump', '/dump.sql', '/backup.sql', '/database.sql', '/db.sql', '/backup.sql.gz'),
  ...probe('exposed_backup_archive', '/backup.zip', '/site.zip', '/www.zip', '/backup.tar.gz', '/backup.tgz'),
  ...probe(
    'exposed_config_backup',
    '/wp-config.php.bak',
    '/wp-config.php.old',
    '/wp-config.php~',
    '/wp-config.php.save',
    '/wp-config.php.orig',
    '/.wp-config.php.swp',
    '/config.php.bak',
    '/configuration.php.bak',
  ),
  ...probe('exposed_phpinfo', '/phpinfo.php', '/info.php'),
  ...probe('exposed_server_status', '/server-status', '/nginx_status'),
  ...probe('exposed_actuator_env', '/actuator/env', '/env'),
  ...probe('exposed_heapdump', '/actuator/heapdump', '/heapdump'),
  ...probe('exposed_debug_log', '/wp-content/debug.log', '/storage/logs/laravel.log'),
  ...probe('wordpress_user_enumeration', '/wp-json/wp/v2/users'),
  ...probe('wordpress_xmlrpc_enabled', '/xmlrpc.php'),
  ...probe('exposed_htpasswd', '/.htpasswd'),
  ...probe('exposed_git_credentials', '/.git-credentials'),
  ...probe('exposed_npmrc', '/.npmrc'),
  ...probe('exposed_sftp_config', '/.vscode/sftp.json'),
  ...probe('exposed_ide_config', '/.idea/workspace.xml'),
  ...probe('exposed_api_spec', '/swagger.json', '/openapi.json', '/v2/api-docs', '/v3/api-docs'),
  ...probe('exposed_swagger_ui', '/swagger-ui.html'),
  ...probe('directory_listing', '/uploads/', '/backup/', '/wp-content/uploads/', '/files/'),
  ...probe('crossdomain_wildcard', '/crossdomain.xml'),
  ...['/graphql', '/api/graphql'].map(
    (path): ExposureProbe => ({
      path,
      type: 'graphql_introspection_enabled',
      query: `query=${encodeURIComponent(GRAPHQL_QUERY)}`,
      postOnRefusal: GRAPHQL_INTROSPECTION,
    }),
  ),
];
