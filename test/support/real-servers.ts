import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { HTPASSWD, MYSQLDUMP, WORDPRESS_DEBUG_LOG } from '../data/exposures/samples.ts';
import { setTimeout as delay } from 'node:timers/promises';
import { certificate } from './fixture-sites.ts';
import { freePort } from './net.ts';
import { killWithThisProcess } from './orphan-guard.ts';

/**
 * Debian's nginx and Apache 2.4 on 127.0.0.1, configured as Debian ships them (TLS on, no security
 * headers), in a directory of their own. A test applies fixes by replacing the directives of the
 * same name (`server` or `virtualhost` lines), and the server is checked and restarted on the same
 * port, as a site owner would.
 */
export interface RealServer {
  url: string;
  /**
   * Replaces the site's extra directives (`inner`: nginx's server block, Apache's VirtualHost;
   * `outer`: nginx's http block, Apache's main configuration) and restarts after the server's own
   * config test; throws with its output when the test fails.
   */
  reconfigure: (inner: string, outer?: string) => Promise<void>;
  close: () => Promise<void>;
}

/** Files a deploy left in the document root, in their real formats; the exposure probes confirm each. */
const LEFT_BEHIND: Record<string, string | Buffer> = {
  '.git/HEAD': 'ref: refs/heads/main\n',
  '.git/config':
    '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n[remote "origin"]\n\turl = git@git.acme.nl:web/site.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n',
  '.env':
    'APP_ENV=production\nAPP_KEY=base64:Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0\nDB_HOST=db.internal\nDB_PASSWORD=geheim-wachtwoord\n',
  'backup.sql': MYSQLDUMP,
  '.htpasswd': HTPASSWD,
  'wp-content/debug.log': WORDPRESS_DEBUG_LOG,
  'wp-config.php.bak':
    "<?php\ndefine('DB_NAME', 'wordpress');\ndefine('DB_USER', 'wp');\ndefine('DB_PASSWORD', 'geheim');\n",
};

export const NGINX = '/usr/sbin/nginx';
export const APACHE = '/usr/sbin/apache2';
export const realServersAvailable = () => existsSync(NGINX) && existsSync(APACHE);

interface Flavour {
  /** The full configuration with the site's extra directives in it. */
  config: (dir: string, port: number, inner: string, outer: string) => string;
  configFile: string;
  check: (dir: string) => [string, string[]];
  run: (dir: string) => [string, string[]];
}

// Debian 12's /etc/nginx/nginx.conf, reduced to what a TLS site uses, and a site as
// /etc/nginx/sites-available/default shows it with `listen 443 ssl` enabled.
const NGINX_FLAVOUR: Flavour = {
  configFile: 'nginx.conf',
  config: (dir, port, directives, outer) => `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 64; }
http {
  sendfile on;
  tcp_nopush on;
  types_hash_max_size 2048;
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  ssl_protocols TLSv1 TLSv1.1 TLSv1.2 TLSv1.3;
  ssl_prefer_server_ciphers on;
  access_log off;
  gzip on;
  client_body_temp_path ${dir}/tmp;
  proxy_temp_path ${dir}/tmp;
  fastcgi_temp_path ${dir}/tmp;
  uwsgi_temp_path ${dir}/tmp;
  scgi_temp_path ${dir}/tmp;
${outer}
  server {
    listen 127.0.0.1:${port} ssl default_server;
    ssl_certificate ${dir}/cert.pem;
    ssl_certificate_key ${dir}/key.pem;
    root ${dir}/www;
    index index.html;
    server_name _;
    location / { try_files $uri $uri/ =404; }
${directives}
  }
}
`,
  check: (dir) => [NGINX, ['-t', '-q', '-p', dir, '-c', join(dir, 'nginx.conf')]],
  run: (dir) => [NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;']],
};

// Debian's apache2.conf essentials and default-ssl.conf, with mod_alias as Debian enables it and mod_ssl and
// mod_headers as `a2enmod` enables them.
const APACHE_MODULES = [
  'mpm_event',
  'authz_core',
  'alias',
  'dir',
  'mime',
  'ssl',
  'socache_shmcb',
  'headers',
  'rewrite',
];
const APACHE_FLAVOUR: Flavour = {
  configFile: 'apache2.conf',
  config: (dir, port, directives, outer) => `ServerRoot /etc/apache2
Define APACHE_RUN_DIR ${dir}
Define APACHE_LOCK_DIR ${dir}
Define APACHE_LOG_DIR ${dir}
DefaultRuntimeDir ${dir}
PidFile ${dir}/apache2.pid
Mutex file:${dir}
ErrorLog ${dir}/error.log
LogLevel warn
ServerName 127.0.0.1
${process.getuid?.() === 0 ? 'User nobody\nGroup nogroup\n' : ''}${APACHE_MODULES.flatMap((m) => [
  `/etc/apache2/mods-available/${m}.load`,
  `/etc/apache2/mods-available/${m}.conf`,
])
  .filter((file) => existsSync(file))
  .map((file) => `Include ${file}`)
  .join('\n')}
Include /etc/apache2/conf-available/security.conf
${outer}
Listen 127.0.0.1:${port}
<Directory ${dir}/www>
  Require all granted
</Directory>
<VirtualHost 127.0.0.1:${port}>
  DocumentRoot ${dir}/www
  SSLEngine on
  SSLCertificateFile ${dir}/cert.pem
  SSLCertificateKeyFile ${dir}/key.pem
${directives}
</VirtualHost>
`,
  check: (dir) => [APACHE, ['-t', '-f', join(dir, 'apache2.conf')]],
  run: (dir) => [APACHE, ['-f', join(dir, 'apache2.conf'), '-DFOREGROUND']],
};

async function waitForPort(port: number, child: ChildProcess, log: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}); ${log}`);
    try {
      execFileSync('bash', ['-c', `exec 3<>/dev/tcp/127.0.0.1/${port}`], { stdio: 'ignore' });
      return;
    } catch {
      await delay(50);
    }
  }
  throw new Error(`server did not listen on ${port}`);
}

async function startReal(flavour: Flavour, name: string): Promise<RealServer> {
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  // Apache started as root serves as nobody: the document root must be reachable for it.
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, 'www'));
  mkdirSync(join(dir, 'tmp'));
  writeFileSync(
    join(dir, 'www', 'index.html'),
    '<!doctype html><html><head><title>Welkom</title></head><body><h1>Het werkt</h1></body></html>\n',
  );
  // What a careless deploy leaves in the document root (rsync of a working copy, a dump, a log).
  for (const [path, content] of Object.entries(LEFT_BEHIND)) {
    mkdirSync(join(dir, 'www', dirname(path)), { recursive: true });
    writeFileSync(join(dir, 'www', path), content);
  }
  // A certificate of the test CA (trusted through NODE_EXTRA_CA_CERTS), with a key the guideline calls Goed.
  const cert = certificate({ keyBits: 3072 });
  writeFileSync(join(dir, 'cert.pem'), cert.certPem);
  writeFileSync(join(dir, 'key.pem'), cert.keyPem, { mode: 0o600 });
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    const [command, args] = flavour.run(dir);
    child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    killWithThisProcess(child);
    let log = '';
    child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    await waitForPort(port, child, log);
  };
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  const write = (inner: string, outer: string) =>
    writeFileSync(join(dir, flavour.configFile), flavour.config(dir, port, inner, outer));
  write('', '');
  await start();
  return {
    url: `https://127.0.0.1:${port}/`,
    async reconfigure(inner, outer = '') {
      write(inner, outer);
      const [command, args] = flavour.check(dir);
      try {
        execFileSync(command, args, { stdio: 'pipe' });
      } catch (error) {
        throw new Error(`${name} config test failed: ${String((error as { stderr?: Buffer }).stderr ?? error)}`);
      }
      await stop();
      await start();
    },
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const startNginx = () => startReal(NGINX_FLAVOUR, 'nginx');
export const startApache = () => startReal(APACHE_FLAVOUR, 'apache');
