// npm run -s demo-site [-- --port 8080]: a deliberately weak website on 127.0.0.1 for the README's
// walk-through and for trying the scanner without internet. It serves a WordPress-like shop over
// plain HTTP without security headers, with a leaking .git, .env, phpinfo(), user list and upload
// folder, gzip-compressed as a stock nginx would. Scanning it needs SCANNER_ALLOW_PRIVATE_TARGETS=true.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

const USAGE = `Usage: npm run -s demo-site [-- --port 8080]

Serves a deliberately weak website on http://127.0.0.1:<port>/ until stopped (Ctrl-C).
Scan it with SCANNER_ALLOW_PRIVATE_TARGETS=true: loopback is refused otherwise.`;

const HOME = `<!doctype html><html lang="nl"><head><meta charset="utf-8"><title>Demo Winkel</title>
<meta name="generator" content="WordPress 6.4.2"><link rel="stylesheet" href="/wp-content/themes/winkel/style.css">
<script src="http://cdn.example.com/jquery.js"></script></head><body><h1>Demo Winkel</h1><p>Een bewust zwakke site om de scanner te proberen.</p></body></html>`;

const PAGES: Record<string, { type: string; body: string; status?: number }> = {
  '/': { type: 'text/html; charset=UTF-8', body: HOME },
  '/.git/config': {
    type: 'text/plain',
    body: '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n[remote "origin"]\n\turl = git@example.com:demo/winkel.git\n',
  },
  '/.git/HEAD': { type: 'text/plain', body: 'ref: refs/heads/main\n' },
  '/.env': { type: 'text/plain', body: 'APP_ENV=production\nDB_HOST=127.0.0.1\nDB_PASSWORD=demo-geheim\n' },
  '/phpinfo.php': {
    type: 'text/html; charset=UTF-8',
    body: '<!DOCTYPE html><html><head><title>PHP 8.3.4 - phpinfo()</title></head><body><table><tr class="h"><td><h1 class="p">PHP Version 8.3.4</h1></td></tr></table><table><tr><td class="e">System </td><td class="v">Linux demo 6.1.0 x86_64 </td></tr><tr><td class="e">Server API </td><td class="v">FPM/FastCGI </td></tr></table></body></html>',
  },
  '/wp-json/wp/v2/users': {
    type: 'application/json; charset=UTF-8',
    body: '[{"id":1,"name":"beheerder","url":"","description":"","link":"http:\\/\\/127.0.0.1\\/author\\/beheerder\\/","slug":"beheerder"}]',
  },
  '/xmlrpc.php': { type: 'text/plain;charset=UTF-8', body: 'XML-RPC server accepts POST requests only.', status: 405 },
  '/uploads/': {
    type: 'text/html',
    body: '<html><head><title>Index of /uploads/</title></head><body><h1>Index of /uploads/</h1><hr><pre><a href="../">../</a>\n<a href="klanten.csv">klanten.csv</a></pre></body></html>',
  },
};
const NOT_FOUND =
  '<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx/1.18.0</center>\r\n</body>\r\n</html>\r\n';

function handle(request: IncomingMessage, response: ServerResponse): void {
  const path = new URL(request.url ?? '/', 'http://demo').pathname;
  const page = PAGES[path] ?? { type: 'text/html', body: NOT_FOUND, status: 404 };
  const headers: Record<string, string | string[]> = {
    server: 'nginx/1.18.0',
    'x-powered-by': 'PHP/8.3.4',
    'content-type': page.type,
  };
  if (path === '/') headers['set-cookie'] = ['PHPSESSID=demo123; path=/', 'wordpress_logged_in_demo=1; path=/'];
  let body: Buffer = Buffer.from(page.body);
  if (/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
    body = gzipSync(body);
    headers['content-encoding'] = 'gzip';
    headers.vary = 'Accept-Encoding';
  }
  response.writeHead(page.status ?? 200, headers);
  response.end(body);
}

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.DEMO_PORT ?? '8080' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const server = createServer(handle);
server.listen(Number(values.port), '127.0.0.1', () =>
  process.stdout.write(`Demo site listening at http://127.0.0.1:${values.port}/\n`),
);
const stop = () => server.close(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
