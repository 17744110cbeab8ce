import { readFileSync } from 'node:fs';
import http from 'node:http';
import { constants } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import zlib from 'node:zlib';
import { issueCertificate, type KeyAndCert, type LeafOptions } from './test-ca.ts';

export interface Reply {
  status?: number;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
  /** Wait this long before answering (a slow script, an overloaded backend). */
  delayMs?: number;
}

export type Route = Reply | ((req: http.IncomingMessage, body: string) => Reply);

export interface SiteDefinition {
  routes: Record<string, Route>;
  /** Answer for paths without a route; a plain 404 by default. */
  fallback?: Route;
  /** Gzip text answers when the client accepts it, as nginx and Apache ship configured. */
  gzip?: boolean;
  /** Listen on this port (a site that comes back after being down); any free one by default. */
  port?: number;
  /** Serve HTTPS with this TLS configuration. */
  tls?: {
    certificate: KeyAndCert;
    /** Intermediate certificates sent after the leaf. */
    chain?: KeyAndCert[];
    minVersion?: 'TLSv1' | 'TLSv1.2';
    maxVersion?: 'TLSv1' | 'TLSv1.2' | 'TLSv1.3';
    /** OpenSSL cipher list for TLS 1.2 and below; without it (and above TLS 1.0) the server is hardened (HARDENED_TLS). */
    ciphers?: string;
    /** Further server options: honorCipherOrder, dhparam, ecdhCurve, secureOptions, sigalgs. */
    options?: https.ServerOptions;
  };
}

/**
 * How a well-run server is configured after the NCSC-NL guideline: TLS 1.3 and ECDHE with AEAD in
 * its own order, SHA-2 signatures only, and no renegotiation started by clients.
 */
export const HARDENED_TLS: https.ServerOptions = {
  ciphers: [
    'TLS_AES_256_GCM_SHA384',
    'TLS_CHACHA20_POLY1305_SHA256',
    'TLS_AES_128_GCM_SHA256',
    'ECDHE-RSA-AES256-GCM-SHA384',
    'ECDHE-RSA-CHACHA20-POLY1305',
    'ECDHE-RSA-AES128-GCM-SHA256',
  ].join(':'),
  honorCipherOrder: true,
  sigalgs:
    'rsa_pss_rsae_sha256:rsa_pss_rsae_sha384:rsa_pss_rsae_sha512:rsa_pkcs1_sha256:rsa_pkcs1_sha384:rsa_pkcs1_sha512',
  secureOptions: constants.SSL_OP_NO_RENEGOTIATION,
};

export interface FixtureSite {
  url: string;
  port: number;
  /** Requests seen, as "METHOD path". */
  requests: string[];
  /** Requests seen as sent, query string included: "METHOD /path?query". */
  targets: string[];
  /** TCP connections accepted so far. */
  readonly connections: number;
  /** The live route table: tests change a site between scans through it. */
  routesRef: Record<string, Route>;
  /** An HTTPS site's new certificate (and chain) for the next connections, as a renewal deploys one. */
  replaceCertificate: (certificate: KeyAndCert, chain?: KeyAndCert[]) => void;
  close: () => Promise<void>;
}

export function testCa(): KeyAndCert {
  const dir = process.env.TEST_CA_DIR!;
  return { certPem: readFileSync(join(dir, 'ca.pem'), 'utf8'), keyPem: readFileSync(join(dir, 'ca-key.pem'), 'utf8') };
}

export function certificate(options: LeafOptions = {}, issuer: KeyAndCert = testCa()): KeyAndCert {
  return issueCertificate(issuer, options);
}

const NOT_FOUND: Reply = {
  status: 404,
  headers: { 'content-type': 'text/html' },
  body: '<!doctype html><html><body><h1>Not Found</h1></body></html>',
};

/** Starts a website on 127.0.0.1 with an ephemeral port. */
export async function startSite(definition: SiteDefinition): Promise<FixtureSite> {
  const requests: string[] = [];
  const targets: string[] = [];
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    targets.push(`${req.method} ${req.url}`);
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://fixture').pathname;
      requests.push(`${req.method} ${path}`);
      const route = definition.routes[path] ?? definition.fallback ?? NOT_FOUND;
      const reply = typeof route === 'function' ? route(req, body) : route;
      const headers: Record<string, string | string[]> = { ...(reply.headers ?? { 'content-type': 'text/plain' }) };
      let payload: string | Buffer = reply.body ?? '';
      const textual = /^(text\/|application\/(json|javascript|xml)|application\/vnd\.[\w.-]+\+json)/.test(
        String(headers['content-type'] ?? ''),
      );
      if (definition.gzip && textual && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '') && payload.length > 20) {
        payload = zlib.gzipSync(payload);
        headers['content-encoding'] = 'gzip';
        headers.vary = 'Accept-Encoding';
      }
      const answer = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, headers);
        res.end(payload);
      };
      if (reply.delayMs) setTimeout(answer, reply.delayMs);
      else answer();
    });
  };
  const tls = definition.tls;
  const server = tls
    ? https.createServer(
        {
          key: tls.certificate.keyPem,
          cert: [tls.certificate, ...(tls.chain ?? [])].map((c) => c.certPem).join(''),
          minVersion: tls.minVersion,
          maxVersion: tls.maxVersion,
          // Client renegotiation off unless a case turns it on (as servers ship today).
          secureOptions: constants.SSL_OP_NO_RENEGOTIATION,
          ...(tls.ciphers
            ? { ciphers: tls.ciphers }
            : tls.minVersion === 'TLSv1'
              ? { ciphers: 'DEFAULT@SECLEVEL=0' }
              : HARDENED_TLS),
          ...tls.options,
        },
        handler,
      )
    : http.createServer(handler);
  // Apache's default KeepAliveTimeout. Node clients drop a connection whose server hints one
  // second or less, so a shorter value would make every request open a new connection.
  server.keepAliveTimeout = 5000;
  let connections = 0;
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(definition.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}/`,
    port,
    requests,
    targets,
    get connections() {
      return connections;
    },
    routesRef: definition.routes,
    replaceCertificate: (replacement, chain = []) => {
      if (!(server instanceof https.Server)) throw new Error('not an HTTPS site');
      server.setSecureContext({
        key: replacement.keyPem,
        cert: [replacement, ...chain].map((c) => c.certPem).join(''),
        ...HARDENED_TLS,
        ...tls?.options,
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
