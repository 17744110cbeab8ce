import net from 'node:net';
import tls from 'node:tls';
import zlib from 'node:zlib';
import { certificate } from './fixture-sites.ts';

// Servers that misbehave the way real ones do, written at the socket level so nothing in Node's
// HTTP server tidies their answers up. Each answers every path the same way unless it routes.

export interface HostileSite {
  url: string;
  close: () => Promise<void>;
}

export interface RawRequest {
  method: string;
  path: string;
  headers: string;
}

type Respond = (socket: net.Socket, request: RawRequest) => void;

const CRLF = '\r\n';
const PAGE =
  '<!doctype html><html><head><title>Winkel</title><meta name="generator" content="WordPress 6.5.2"></head><body><h1>Welkom</h1></body></html>';
const BASE_HEADERS = ['Server: nginx', 'X-Frame-Options: DENY', 'Content-Type: text/html; charset=utf-8'];

/** An HTTP/1.1 response head, written as given: no normalisation, any bytes. */
export const head = (status: string, headers: string[]) =>
  `HTTP/1.1 ${status}${CRLF}${headers.join(CRLF)}${CRLF}${CRLF}`;

function listen(server: net.Server, scheme: 'http' | 'https'): Promise<HostileSite> {
  const sockets = new Set<net.Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      resolve({
        url: `${scheme}://127.0.0.1:${port}/`,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    }),
  );
}

/** Reads requests off a socket (keep-alive included) and hands each to `respond`. */
function serveRequests(socket: net.Socket, respond: Respond): void {
  let buffer = '';
  socket.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('latin1');
    for (let end = buffer.indexOf(CRLF + CRLF); end !== -1; end = buffer.indexOf(CRLF + CRLF)) {
      const [requestLine = '', ...headerLines] = buffer.slice(0, end).split(CRLF);
      const length = Number(/^content-length:\s*(\d+)/im.exec(headerLines.join(CRLF))?.[1] ?? 0);
      if (buffer.length < end + 4 + length) return;
      buffer = buffer.slice(end + 4 + length);
      const [method = 'GET', target = '/'] = requestLine.split(' ');
      if (!socket.destroyed)
        respond(socket, { method, path: new URL(target, 'http://x').pathname, headers: headerLines.join(CRLF) });
    }
  });
}

export function rawSite(respond: Respond): Promise<HostileSite> {
  return listen(
    net.createServer((socket) => serveRequests(socket, respond)),
    'http',
  );
}

/** A complete answer with the given body and extra headers, with a correct Content-Length. */
export function answer(body: string | Buffer, headers: string[] = [], status = '200 OK'): Respond {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const named = (line: string) => line.slice(0, line.indexOf(':')).toLowerCase();
  const base = BASE_HEADERS.filter((line) => !headers.some((extra) => named(extra) === named(line)));
  return (socket) =>
    socket.write(
      Buffer.concat([
        Buffer.from(head(status, [...base, ...headers, `Content-Length: ${bytes.length}`]), 'latin1'),
        bytes,
      ]),
    );
}

/** The page at "/", real-looking 404s elsewhere (as nginx answers them). */
export function pageOnly(page: Respond): Respond {
  const notFound = answer(
    '<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
    [],
    '404 Not Found',
  );
  return (socket, request) => (request.path === '/' ? page : notFound)(socket, request);
}

const compressed = (encoding: string, compress: (data: Buffer) => Buffer) =>
  pageOnly(answer(compress(Buffer.from(PAGE)), [`Content-Encoding: ${encoding}`, 'Vary: Accept-Encoding']));

/** gzip members of a megabyte of zeros each, sent until the client stops reading: gigabytes once inflated. */
function decompressionBomb(): Respond {
  const member = zlib.gzipSync(Buffer.alloc(1024 * 1024), { level: 9 });
  return (socket) => {
    socket.write(head('200 OK', [...BASE_HEADERS, 'Content-Encoding: gzip', 'Transfer-Encoding: chunked']), 'latin1');
    let sent = 0;
    const more = () => {
      while (!socket.destroyed && sent < 4096) {
        sent += 1;
        const chunk = Buffer.concat([Buffer.from(`${member.length.toString(16)}${CRLF}`), member, Buffer.from(CRLF)]);
        if (!socket.write(chunk)) return void socket.once('drain', more);
      }
      if (!socket.destroyed) socket.end(`0${CRLF}${CRLF}`);
    };
    more();
  };
}

/** Writes a chunk on a timer and never finishes the body. */
function endless(everyMs: number, chunk: (n: number) => string, headers: string[]): Respond {
  return (socket) => {
    socket.write(head('200 OK', [...BASE_HEADERS, ...headers]), 'latin1');
    let n = 0;
    const timer = setInterval(() => {
      if (socket.destroyed) return clearInterval(timer);
      socket.write(chunk(n++));
    }, everyMs);
    socket.on('close', () => clearInterval(timer));
  };
}

const chunked = (text: string) => `${Buffer.byteLength(text).toString(16)}${CRLF}${text}${CRLF}`;

function redirectTo(location: (path: string) => string, status = '302 Found'): Respond {
  return (socket, request) =>
    socket.write(head(status, ['Server: nginx', `Location: ${location(request.path)}`, 'Content-Length: 0']), 'latin1');
}

/** Redirects `/` through `hops` numbered steps before the page. */
function redirectChain(hops: number): Respond {
  const page = answer(PAGE);
  return (socket, request) => {
    const step = request.path === '/' ? 0 : Number(/^\/hop-(\d+)$/.exec(request.path)?.[1] ?? NaN);
    if (Number.isNaN(step)) return answer('not found', [], '404 Not Found')(socket, request);
    if (step >= hops) return page(socket, request);
    redirectTo(() => `/hop-${step + 1}`, '301 Moved Permanently')(socket, request);
  };
}

/** The "/" page redirects with this raw Location; its target (whatever the client makes of it) is the page. */
function oddLocation(location: (host: string) => string): Respond {
  const page = answer(PAGE);
  return (socket, request) => {
    const host = /^host:\s*(\S+)/im.exec(request.headers)?.[1] ?? '';
    return request.path === '/' ? redirectTo(() => location(host))(socket, request) : page(socket, request);
  };
}

const encoded = (encoding: string, html: string, headers: string[]) =>
  pageOnly(answer(encode(encoding, html), headers));

/** Bytes of `text` in a legacy encoding (Node can decode but not encode these, so map by hand). */
function encode(encoding: string, text: string): Buffer {
  if (encoding === 'windows-1252') return Buffer.from(text.replace(/€/g, '\x80'), 'latin1');
  if (encoding === 'shift_jis')
    return Buffer.from(text.replace(/ようこそ/g, '\x82\xe6\x82\xa4\x82\xb1\x82\xbb'), 'latin1');
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
}

let made: ReturnType<typeof certificate> | undefined;
/**
 * The hostile TLS servers' certificate, made once: key generation is synchronous, and the sequence
 * starts each server on demand in the process whose event loop it measures.
 */
export const hostileCertificate = () => (made ??= certificate());

export interface HostileCase {
  name: string;
  start: () => Promise<HostileSite>;
  /** What the API must answer: a stored result, or a clear 400. */
  expect: 201 | 400;
  /** The page's headers and HTML must have been read: X-Frame-Options seen, WordPress detected. */
  readsPage?: boolean;
  /** Every path stalls, so the probes meet the deadline and the result says exposures were not checked. */
  stalls?: boolean;
}

const http = (name: string, respond: Respond, extra: Partial<HostileCase> = {}): HostileCase => ({
  name,
  start: () => rawSite(respond),
  expect: 201,
  ...extra,
});
const READS_PAGE = { readsPage: true };

export const HOSTILE_CASES: HostileCase[] = [
  http(
    'gzip',
    compressed('gzip', (d) => zlib.gzipSync(d)),
    READS_PAGE,
  ),
  http(
    'deflate',
    compressed('deflate', (d) => zlib.deflateSync(d)),
    READS_PAGE,
  ),
  http(
    'brotli',
    compressed('br', (d) => zlib.brotliCompressSync(d)),
    READS_PAGE,
  ),
  http(
    'invalid gzip',
    pageOnly(answer(Buffer.from('dit is geen gzip, maar dat zegt de header wel'), ['Content-Encoding: gzip'])),
  ),
  http('decompression bomb', decompressionBomb()),
  http(
    'chunked body that never ends',
    endless(50, (n) => chunked(`<p>regel ${n}</p>`), ['Transfer-Encoding: chunked']),
    { stalls: true },
  ),
  http(
    'body dripping one byte per second',
    endless(1000, () => '<', ['Content-Length: 100000']),
    { stalls: true },
  ),
  http('connection reset mid-body', (socket) => {
    socket.write(head('200 OK', [...BASE_HEADERS, 'Content-Length: 5000']) + PAGE.slice(0, 60), 'latin1');
    setTimeout(() => socket.resetAndDestroy(), 20);
  }),
  http('Content-Length longer than the body', (socket) => {
    socket.write(head('200 OK', [...BASE_HEADERS, 'Content-Length: 100000']) + PAGE, 'latin1');
    socket.end();
  }),
  http('Content-Length shorter than the body', (socket) =>
    socket.write(head('200 OK', [...BASE_HEADERS, 'Content-Length: 20']) + PAGE, 'latin1'),
  ),
  http('HTTP/1.0 without a length', (socket) => {
    socket.write(`HTTP/1.0 200 OK${CRLF}${BASE_HEADERS.join(CRLF)}${CRLF}${CRLF}${PAGE}`, 'latin1');
    socket.end();
  }),
  http(
    '100 Continue, 102 and 103 before the answer',
    (socket, request) => {
      socket.write(
        `HTTP/1.1 100 Continue${CRLF}${CRLF}HTTP/1.1 102 Processing${CRLF}${CRLF}HTTP/1.1 103 Early Hints${CRLF}Link: </style.css>; rel=preload; as=style${CRLF}${CRLF}`,
        'latin1',
      );
      pageOnly(answer(PAGE))(socket, request);
    },
    READS_PAGE,
  ),
  http(
    '500 response headers',
    pageOnly(
      answer(
        PAGE,
        Array.from({ length: 500 }, (_, i) => `X-Debug-${i}: waarde ${i}`),
      ),
    ),
    READS_PAGE,
  ),
  http('one 64 KB header', pageOnly(answer(PAGE, [`X-Huge: ${'a'.repeat(64 * 1024)}`])), READS_PAGE),
  http(
    'header bytes outside ASCII',
    pageOnly(answer(PAGE, ['X-Naam: caf\xe9 \xc3\xa9\xe2\x82\xac', 'Set-Cookie: sessie=\xff\xfe; Path=/'])),
    READS_PAGE,
  ),
  http(
    'duplicate and malformed Set-Cookie, HSTS and CSP',
    pageOnly(
      answer(PAGE, [
        'Set-Cookie: a=1; Secure; HttpOnly; SameSite=Lax',
        'Set-Cookie: a=2; Expires=nooit; SameSite=Whatever; Path',
        'Set-Cookie: =; ;;; Domain=',
        'Set-Cookie: sessionid',
        'Strict-Transport-Security: max-age=31536000',
        'Strict-Transport-Security: max-age=abc; includeSubDomains; includeSubDomains',
        "Content-Security-Policy: default-src 'self'",
        "Content-Security-Policy: script-src 'unsafe-inline' 'unsafe-inline'; ;;; default-src",
        'Content-Security-Policy: ',
      ]),
    ),
  ),
  http(
    'redirect loop',
    redirectTo((path) => (path === '/' ? '/lus' : '/')),
    { expect: 400 },
  ),
  http('20-hop redirect chain', redirectChain(20), READS_PAGE),
  // Every path answered 200 with a page of letters and no digit: the soft-404 comparison of every
  // probe with every baseline meets long runs of token characters (quadratic for a backtracking pattern).
  http(
    'letters without end on every path',
    answer(`<!doctype html><html><body><p>${'Lorem'.repeat(1_700)}</p></body></html>`, ['Content-Type: text/html']),
  ),
  http(
    'relative Location',
    oddLocation(() => 'elders/pagina'),
    READS_PAGE,
  ),
  http(
    'protocol-relative Location',
    oddLocation((host) => `//${host}/doel`),
    READS_PAGE,
  ),
  http(
    'Location that is not a URL',
    oddLocation(() => 'http://[::1'),
  ),
  http(
    'windows-1252 page',
    encoded(
      'windows-1252',
      '<html><head><meta charset="windows-1252"><meta name="generator" content="WordPress 6.5"></head><body>Prijs: €10</body></html>',
      ['Content-Type: text/html; charset=windows-1252'],
    ),
    READS_PAGE,
  ),
  http(
    'Shift_JIS page',
    encoded(
      'shift_jis',
      '<html><head><meta name="generator" content="WordPress 6.5"></head><body>ようこそ</body></html>',
      ['Content-Type: text/html; charset=Shift_JIS'],
    ),
    READS_PAGE,
  ),
  http(
    'page with a byte-order mark',
    encoded(
      'bom',
      '<!doctype html><html><head><meta name="generator" content="WordPress 6.5"></head><body>BOM</body></html>',
      [],
    ),
    READS_PAGE,
  ),
  http(
    '5 MB single-line HTML page',
    pageOnly(answer(`<!doctype html><html><body>${'<span>x</span>'.repeat((5 * 1024 * 1024) / 14)}</body></html>`)),
  ),
  {
    name: 'TLS server that never completes the handshake',
    start: () =>
      listen(
        net.createServer(() => {}),
        'https',
      ),
    expect: 400,
  },
  {
    name: 'TLS server that closes right after the handshake',
    start: () => {
      const cert = hostileCertificate();
      return listen(
        tls.createServer({ key: cert.keyPem, cert: cert.certPem }, (socket) => socket.destroy()),
        'https',
      );
    },
    expect: 400,
  },
];
