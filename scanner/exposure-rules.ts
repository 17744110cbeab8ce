// What counts as a confirmed exposure: every rule checks content, as nuclei templates do, never status alone.

export interface ExposureRule {
  confirm: (body: Buffer, text: string) => boolean;
  /** Whether the evidence is itself an HTML page (phpinfo, listings); otherwise HTML answers are ignored. */
  html?: boolean;
}

const startsWithBytes = (...bytes: number[]) => (body: Buffer) => bytes.every((b, i) => body[i] === b);
const ascii = (text: string) => Buffer.from(text, 'latin1');
const startsWithText = (prefix: string) => (body: Buffer) => body.subarray(0, prefix.length).equals(ascii(prefix));

const ENV_LINE = /^\s*(export\s+)?[A-Z][A-Z0-9_]*\s*=.*$/;

/** Dotenv content: two or more KEY=value lines, or a short file made only of such lines and comments. */
function isDotenv(text: string): boolean {
  const lines = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
  const assignments = lines.filter((line) => ENV_LINE.test(line)).length;
  return assignments >= 2 || (assignments === lines.length && assignments > 0 && lines.length <= 5 && text.length < 2048);
}
const PEM_PRIVATE_KEY = /-----BEGIN (RSA |DSA |EC |OPENSSH |ENCRYPTED )?PRIVATE KEY-----/;
const isZip = startsWithBytes(0x50, 0x4b, 0x03, 0x04);
const isGzip = startsWithBytes(0x1f, 0x8b);
const isSevenZip = startsWithBytes(0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c);
const isRar = startsWithText('Rar!\x1a\x07');
const isSqlite = startsWithText('SQLite format 3\0');
const isVimSwap = startsWithText('b0VIM');

function json(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const EXPOSURE_RULES: Record<string, ExposureRule> = {
  exposed_git_config: { confirm: (_, t) => /^\s*\[(core|remote "[^"]*"|branch "[^"]*")\]\s*$/m.test(t) },
  exposed_git_head: { confirm: (_, t) => /^ref:\s*refs\/[\w./-]+\s*$/.test(t.trim()) || /^[0-9a-f]{40}$/.test(t.trim()) },
  exposed_git_index: { confirm: startsWithText('DIRC') },
  exposed_svn: { confirm: (b, t) => isSqlite(b) || /^\d{1,2}\r?\n/.test(t) },
  exposed_hg: { confirm: (_, t) => /^\s*\[(paths|ui|extensions)\]/m.test(t) },
  exposed_env_file: { confirm: (_, t) => isDotenv(t) },
  exposed_aws_credentials: { confirm: (_, t) => /^\s*aws_(access_key_id|secret_access_key)\s*=/im.test(t) },
  exposed_ds_store: { confirm: startsWithBytes(0x00, 0x00, 0x00, 0x01, 0x42, 0x75, 0x64, 0x31) },
  exposed_docker_compose: { confirm: (_, t) => /^services:\s*$/m.test(t) && /^\s+(image|build):/m.test(t) },
  exposed_private_key: { confirm: (_, t) => PEM_PRIVATE_KEY.test(t) },
  exposed_sql_dump: {
    confirm: (b, t) => isGzip(b) || /(CREATE TABLE|INSERT INTO|-- MySQL dump|-- PostgreSQL database dump|-- MariaDB dump)/i.test(t),
  },
  exposed_backup_archive: { confirm: (b) => isZip(b) || isGzip(b) || isSevenZip(b) || isRar(b) },
  exposed_config_backup: {
    confirm: (b, t) => (isVimSwap(b) && /<\?php|DB_PASSWORD/.test(t)) || (/<\?php/.test(t) && /define\s*\(|\$[A-Za-z_]\w*\s*=/.test(t)),
  },
  exposed_phpinfo: { html: true, confirm: (_, t) => /<title>\s*phpinfo\(\)\s*<\/title>|PHP Version\s+\d+\.\d+/i.test(t) && /phpinfo|PHP License/i.test(t) },
  exposed_server_status: { html: true, confirm: (_, t) => /Apache Server (Status|Information) for/i.test(t) },
  exposed_actuator_env: { confirm: (_, t) => /"(propertySources|activeProfiles)"\s*:/.test(t) },
  exposed_heapdump: { confirm: (b) => startsWithText('JAVA PROFILE 1.0')(b) || isGzip(b) },
  exposed_debug_log: {
    confirm: (_, t) =>
      /PHP (Notice|Warning|Fatal error|Parse error|Deprecated):/.test(t) ||
      /^\[\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}[^\]]*\]\s+\w+\.(EMERGENCY|ALERT|CRITICAL|ERROR|WARNING|NOTICE|INFO|DEBUG):/m.test(t),
  },
  wordpress_user_enumeration: {
    confirm: (_, t) => {
      const users = json(t);
      return Array.isArray(users) && users.some((u) => typeof u === 'object' && u !== null && 'slug' in u && 'id' in u);
    },
  },
  wordpress_xmlrpc_enabled: { html: true, confirm: (_, t) => /XML-RPC server accepts POST requests only/.test(t) },
  exposed_htpasswd: { confirm: (_, t) => /^[^:\s#]+:(\$apr1\$|\$2[aby]\$|\$[156]\$|\{SHA\})/m.test(t) },
  exposed_git_credentials: { confirm: (_, t) => /^https?:\/\/[^\s:@/]+:[^\s@/]+@[^\s/]+/m.test(t) },
  exposed_npmrc: { confirm: (_, t) => /(_authToken|_auth|_password)\s*=\s*\S+/.test(t) },
  exposed_sftp_config: { confirm: (_, t) => /"password"\s*:/.test(t) && /"host"\s*:/.test(t) },
  exposed_ide_config: { confirm: (_, t) => /<project version="\d+"/.test(t) },
  exposed_api_spec: {
    confirm: (_, t) => {
      const doc = json(t);
      return typeof doc === 'object' && doc !== null && ('swagger' in doc || 'openapi' in doc) && 'paths' in doc;
    },
  },
  exposed_swagger_ui: { html: true, confirm: (_, t) => /<title>\s*Swagger UI\s*<\/title>|swagger-ui-bundle\.js/i.test(t) },
  graphql_introspection_enabled: { confirm: (_, t) => /"__schema"\s*:\s*\{/.test(t) && /"queryType"/.test(t) },
  directory_listing: { html: true, confirm: (_, t) => /<title>\s*Index of \/|<h1>\s*Index of \/|<title>\s*Directory listing for \//i.test(t) },
  exposed_source_map: {
    confirm: (_, t) => {
      const map = json(t);
      return typeof map === 'object' && map !== null && (map as { version?: unknown }).version === 3 && 'mappings' in map;
    },
  },
  crossdomain_wildcard: { confirm: (_, t) => /<allow-access-from\s+domain="\*"/i.test(t) },
};

export interface ExposureProbe {
  path: string;
  type: keyof typeof EXPOSURE_RULES;
  method?: 'GET' | 'POST';
  /** JSON body for POST probes. */
  body?: string;
}

const GRAPHQL_INTROSPECTION = JSON.stringify({ query: '{__schema{queryType{name}}}' });

const probe = (type: string, ...paths: string[]): ExposureProbe[] => paths.map((path) => ({ path, type }));

/** Curated paths that must never be public. */
export const EXPOSURE_PROBES: ExposureProbe[] = [
  ...probe('exposed_git_config', '/.git/config'),
  ...probe('exposed_git_head', '/.git/HEAD'),
  ...probe('exposed_git_index', '/.git/index'),
  ...probe('exposed_svn', '/.svn/entries', '/.svn/wc.db'),
  ...probe('exposed_hg', '/.hg/hgrc'),
  ...probe('exposed_env_file', '/.env', '/.env.local', '/.env.production', '/.env.development', '/.env.backup', '/.env.bak', '/.env.old'),
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
  ...probe('exposed_server_status', '/server-status'),
  ...probe('exposed_actuator_env', '/actuator/env'),
  ...probe('exposed_heapdump', '/actuator/heapdump'),
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
  { path: '/graphql', type: 'graphql_introspection_enabled', method: 'POST', body: GRAPHQL_INTROSPECTION },
  { path: '/api/graphql', type: 'graphql_introspection_enabled', method: 'POST', body: GRAPHQL_INTROSPECTION },
];
