import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The node flags `npm start` runs the service with (package.json's config.node_flags: the heap limit). */
export const NODE_FLAGS: string[] = (
  JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as {
    config: { node_flags: string };
  }
).config.node_flags.split(' ');
