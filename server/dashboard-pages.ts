import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { DASHBOARD_PAGES } from '../domain/endpoints.ts';
import { allowDashboard } from './security-headers.ts';

/** dist/web of this checkout, found from this file whether it runs from source or from dist/. */
export function defaultWebRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'dist', 'web');
}

/**
 * The dashboard: its pages answer with the built app's index.html under a strict CSP (no inline
 * script or style anywhere), its hashed assets come from dist/web/assets and may be cached forever.
 */
export async function registerDashboard(app: FastifyInstance, webRoot = defaultWebRoot()): Promise<void> {
  const indexFile = join(webRoot, 'index.html');
  const index = existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : null;
  await app.register(fastifyStatic, {
    root: join(webRoot, 'assets'),
    prefix: '/assets/',
    index: false,
    wildcard: true,
    // The file names carry a hash of their content: a new build gets new names.
    maxAge: '365d',
    immutable: true,
    setHeaders: (response) => allowDashboard(response),
  });
  for (const path of Object.values(DASHBOARD_PAGES)) {
    app.get(path, async (_request, reply) => {
      if (!index) return reply.code(503).send({ error: 'Het dashboard is niet gebouwd: voer npm run build uit.' });
      return allowDashboard(reply).type('text/html; charset=utf-8').send(index);
    });
  }
}
