import { defineConfig } from 'vitest/config';

/**
 * `npm run test:real`: the suites on real builds too slow for `npm test` (several Next.js versions,
 * a WordPress install). Each builds its parts once per clone into the ignored .real/ folder.
 */
export default defineConfig({
  test: {
    name: 'real',
    include: ['test/real/**/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 900_000,
    pool: 'forks',
    maxWorkers: 1,
    globalSetup: ['test/support/global-setup.ts'],
  },
});
