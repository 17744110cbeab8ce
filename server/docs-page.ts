import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ERRORS } from '../domain/errors.ts';
import { allowDocs } from './security-headers.ts';

function swaggerUiPage(): string {
  return `<!doctype html>
<html lang="nl"><head><meta charset="utf-8"><title>Website Security Scanner API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css"></head>
<body><div id="swagger-ui"></div><script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script></body></html>`;
}

/** /openapi.json and the Swagger UI at /docs, served from swagger-ui-dist's own files. */
export function registerDocsPage(app: FastifyInstance, document: () => Record<string, unknown>): void {
  app.get('/openapi.json', async () => document());
  const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const assets: Record<string, [string, string]> = {
    'swagger-ui.css': ['text/css; charset=utf-8', readFileSync(join(swaggerDir, 'swagger-ui.css'), 'utf8')],
    'swagger-ui-bundle.js': [
      'application/javascript; charset=utf-8',
      readFileSync(join(swaggerDir, 'swagger-ui-bundle.js'), 'utf8'),
    ],
    'init.js': [
      'application/javascript; charset=utf-8',
      "window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui' });",
    ],
  };
  app.get('/docs', async (_request, reply) => allowDocs(reply).type('text/html; charset=utf-8').send(swaggerUiPage()));
  app.get<{ Params: { asset: string } }>('/docs/:asset', async (request, reply) => {
    const asset = assets[request.params.asset];
    if (!asset) return reply.code(404).send({ error: ERRORS.routeNotFound });
    return allowDocs(reply).type(asset[0]).header('cache-control', 'public, max-age=3600').send(asset[1]);
  });
}
