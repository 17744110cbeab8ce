import { certificate, startSite, type FixtureSite, type Reply } from './fixture-sites.ts';

const html = (body: string, head = ''): Reply => ({
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!doctype html><html><head>${head}</head><body>${body}</body></html>`,
});

const text = (body: string, type = 'text/plain'): Reply => ({ headers: { 'content-type': type }, body });

/** Hardened headers of a well-run HTTPS site. */
export const HARDENED_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'set-cookie': '__Host-session=abc; Path=/; Secure; HttpOnly; SameSite=Lax',
};

export function hardenedSite(): Promise<FixtureSite> {
  return startSite({
    tls: { certificate: certificate() },
    routes: {
      '/': {
        headers: HARDENED_HEADERS,
        body: '<!doctype html><html><head><script src="/app.js"></script></head><body>Veilig</body></html>',
      },
      '/app.js': text('console.log("ok")', 'application/javascript'),
    },
  });
}

/** A plain-HTTP WordPress site that leaks its repository, secrets and more. */
export function leakyWordPressSite(): Promise<FixtureSite> {
  const page = html(
    '<p>Blog</p><script src="/wp-includes/js/jquery.js"></script><script src="http://cdn.example.com/lib.js"></script>',
    '<meta name="generator" content="WordPress 6.4.2"><link rel="stylesheet" href="/wp-content/themes/twentytwenty/style.css">',
  );
  return startSite({
    routes: {
      '/': {
        ...page,
        headers: {
          ...page.headers,
          server: 'Apache/2.4.41 (Ubuntu)',
          'x-powered-by': 'PHP/7.4.3',
          'set-cookie': ['wordpress_logged_in_abc=1; path=/', 'PHPSESSID=xyz; path=/'],
        },
      },
      '/.git/config': text('[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n'),
      '/.git/HEAD': text('ref: refs/heads/main\n'),
      '/.env': text('APP_ENV=production\nDB_HOST=localhost\nDB_PASSWORD=hunter2\n'),
      '/wp-config.php.bak': text("<?php\ndefine('DB_NAME', 'wp');\ndefine('DB_PASSWORD', 'secret');\n"),
      '/wp-json/wp/v2/users': text('[{"id":1,"name":"admin","slug":"admin"}]', 'application/json'),
      '/xmlrpc.php': text('XML-RPC server accepts POST requests only.'),
      '/wp-content/debug.log': text(
        '[10-Jan-2025 10:00:00 UTC] PHP Warning:  Undefined variable $x in /var/www/html/wp-content/plugins/a.php on line 3\n',
      ),
      '/backup.zip': {
        headers: { 'content-type': 'application/zip' },
        body: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00]),
      },
      '/id_rsa': text(
        '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n',
      ),
      '/uploads/': html('<h1>Index of /uploads</h1><a href="a.jpg">a.jpg</a>', '<title>Index of /uploads</title>'),
    },
  });
}

/** Answers 200 with the same page for every path, echoing the path (a soft-404 site). */
export function softNotFoundSite(): Promise<FixtureSite> {
  const page = (path: string) =>
    html(`<h1>Pagina niet gevonden</h1><p>${path} bestaat niet. [core] ref: refs/heads/main</p>`);
  return startSite({ routes: {}, fallback: (req) => page(req.url ?? '/') });
}

/** A single-page app: index.html for every path. */
export function singlePageAppSite(): Promise<FixtureSite> {
  const shell = html('<div id="root"></div><script src="/assets/index.js"></script>');
  return startSite({ routes: {}, fallback: shell });
}

export function httpsSite(options: Parameters<typeof certificate>[0], tlsVersion?: 'legacy'): Promise<FixtureSite> {
  return startSite({
    tls: {
      certificate: certificate(options),
      ...(tlsVersion === 'legacy' ? { minVersion: 'TLSv1' as const, maxVersion: 'TLSv1' as const } : {}),
    },
    routes: { '/': { headers: HARDENED_HEADERS, body: '<!doctype html><html><body>ok</body></html>' } },
  });
}
