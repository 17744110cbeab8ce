import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './net.ts';
import { killWithThisProcess } from './orphan-guard.ts';

/** Debian's wordpress package, PHP's Apache module and MariaDB (.ci/run installs them). */
export const WORDPRESS = '/usr/share/wordpress';
const APACHE = '/usr/sbin/apache2';
const MARIADBD = '/usr/sbin/mariadbd';
export const wordpressAvailable = () =>
  [WORDPRESS, APACHE, MARIADBD, '/usr/lib/apache2/modules/libphp8.2.so', '/usr/share/javascript/lodash'].every(
    existsSync,
  );

export interface WordPressSite {
  url: string;
  close(): Promise<void>;
}

/** Files of a fixture plugin or theme, written under wp-content. */
export type ContentFiles = Record<string, string>;

const root = process.getuid?.() === 0;

async function waitFor(ready: () => boolean, what: string, child: ChildProcess) {
  for (let i = 0; i < 300; i++) {
    if (ready()) return;
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not start`);
}

/**
 * Debian's WordPress as installed, served by Apache with mod_php from a private MariaDB: a copy of
 * the package's files with a wp-config.php of our own, our plugins and themes in wp-content,
 * Debian's javascript-common alias, then WordPress's own installer, as an owner runs it once.
 */
export async function startWordPress(
  content: ContentFiles,
  activePlugins: string[],
  theme: string,
  /** Starts what stands in front of Apache (a proxy) and gives its URL, which WordPress then names as its home. */
  front: (apache: string) => Promise<string> = async (apache) => apache,
): Promise<WordPressSite> {
  const dir = mkdtempSync(join(tmpdir(), 'wordpress-'));
  // Apache started as root serves as nobody, MariaDB runs as root: both must reach the folder.
  chmodSync(dir, 0o755);
  const socket = join(dir, 'mysql.sock');
  const children: ChildProcess[] = [];
  const close = async () => {
    for (const child of children) if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
    await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null)));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    execFileSync(
      'mariadb-install-db',
      [
        '--no-defaults',
        `--datadir=${join(dir, 'db')}`,
        ...(root ? ['--user=root'] : []),
        '--auth-root-authentication-method=normal',
        '--skip-test-db',
      ],
      { stdio: 'ignore' },
    );
    const db = killWithThisProcess(
      spawn(
        MARIADBD,
        [
          '--no-defaults',
          `--datadir=${join(dir, 'db')}`,
          `--socket=${socket}`,
          `--pid-file=${join(dir, 'mysql.pid')}`,
          '--skip-networking',
          ...(root ? ['--user=root'] : []),
        ],
        // Their own process group: Apache and MariaDB signal theirs when they stop.
        { stdio: 'ignore', detached: true },
      ),
      { group: true },
    );
    children.push(db);
    await waitFor(() => existsSync(socket), 'mariadbd', db);
    chmodSync(socket, 0o777);
    execFileSync('mariadb', [`--socket=${socket}`, '-uroot', '-e', 'CREATE DATABASE wordpress']);

    // A copy of the package's tree: its wp-config.php reads /etc/wordpress (root's), and PHP resolves
    // symlinked folders to their real path, so only a copy takes a wp-config.php of our own.
    const www = join(dir, 'www');
    execFileSync('cp', ['-a', WORDPRESS, www]);
    for (const [path, text] of Object.entries(content)) {
      const target = join(www, 'wp-content', path);
      mkdirSync(join(target, '..'), { recursive: true });
      writeFileSync(target, text);
    }
    const port = await freePort();
    const apacheUrl = `http://127.0.0.1:${port}`;
    const url = (await front(`${apacheUrl}/`)).replace(/\/$/, '');
    writeFileSync(
      join(www, 'wp-config.php'),
      `<?php
define('DB_NAME', 'wordpress');
define('DB_USER', 'root');
define('DB_PASSWORD', '');
define('DB_HOST', 'localhost:${socket}');
define('WP_HOME', '${url}');
define('WP_SITEURL', '${url}');
define('WP_CONTENT_DIR', __DIR__ . '/wp-content');
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_HTTP_BLOCK_EXTERNAL', true);
// WordPress would POST to its own wp-cron.php on page views: a request of its own, not the scanner's.
define('DISABLE_WP_CRON', true);
$table_prefix = 'wp_';
define('ABSPATH', __DIR__ . '/');
require_once ABSPATH . 'wp-settings.php';
`,
    );
    execFileSync('chmod', ['-R', 'a+rX', www]);
    writeFileSync(
      join(dir, 'apache2.conf'),
      `ServerRoot /etc/apache2
DefaultRuntimeDir ${dir}
PidFile ${dir}/apache2.pid
Mutex file:${dir}
ErrorLog ${dir}/error.log
LogLevel warn
ServerName 127.0.0.1
${root ? 'User nobody\nGroup nogroup\n' : ''}${[
  'mpm_prefork',
  'authz_core',
  'alias',
  'dir',
  'mime',
  'rewrite',
  'env',
  'setenvif',
  'php8.2',
]
  .flatMap((m) => [`/etc/apache2/mods-available/${m}.load`, `/etc/apache2/mods-available/${m}.conf`])
  .filter(existsSync)
  .map((file) => `Include ${file}`)
  .join('\n')}
Include /etc/apache2/conf-available/security.conf
Alias /javascript /usr/share/javascript/
<Directory /usr/share/javascript/>
  Options FollowSymLinks
  Require all granted
</Directory>
Listen 127.0.0.1:${port}
DocumentRoot ${www}
DirectoryIndex index.php index.html
<Directory ${www}>
  Options FollowSymLinks
  AllowOverride None
  Require all granted
</Directory>
`,
    );
    const apache = killWithThisProcess(
      spawn(APACHE, ['-f', join(dir, 'apache2.conf'), '-DFOREGROUND'], { stdio: 'ignore', detached: true }),
      { group: true },
    );
    children.push(apache);
    await waitFor(() => existsSync(join(dir, 'apache2.pid')), 'apache2', apache);
    // WordPress's installer, as the owner runs it once; then our plugins and theme switched on.
    const install = await fetch(`${apacheUrl}/wp-admin/install.php?step=2`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        weblog_title: 'Bakkerij',
        user_name: 'beheer',
        admin_password: 'een-lang-wachtwoord-voor-tests',
        admin_password2: 'een-lang-wachtwoord-voor-tests',
        pw_weak: '1',
        admin_email: 'beheer@bakkerij.test',
        blog_public: '1',
      }),
    });
    if (install.status !== 200) throw new Error(`WordPress install answered ${install.status}`);
    const serialized = `a:${activePlugins.length}:{${activePlugins.map((p, i) => `i:${i};s:${p.length}:"${p}";`).join('')}}`;
    execFileSync('mariadb', [
      `--socket=${socket}`,
      '-uroot',
      'wordpress',
      '-e',
      `UPDATE wp_options SET option_value='${serialized}' WHERE option_name='active_plugins';
       UPDATE wp_options SET option_value='${theme}' WHERE option_name IN ('template','stylesheet');`,
    ]);
    return { url: `${url}/`, close };
  } catch (error) {
    await close();
    throw error;
  }
}
