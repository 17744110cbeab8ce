import { defineConfig } from 'vitest/config';
import { postgresAvailable } from './test/support/postgres.ts';

/**
 * Every suite that touches a database runs twice: on SQLite and on a throwaway PostgreSQL server
 * (test/support/postgres-setup.ts), through startApi or freshDatabase. The others run once: the
 * scanner's suites have no database, the README walk-through and the secrets-key file are SQLite's
 * zero-configuration by definition, and the scale-out test starts its own PostgreSQL and Redis.
 */
export const ON_BOTH_BACKENDS = [
  'test/api-answers.test.ts',
  'test/api-auth.test.ts',
  'test/api-resources.test.ts',
  'test/api-scans.test.ts',
  'test/api-sites.test.ts',
  'test/services.test.ts',
  'test/scheduled-scans.test.ts',
  'test/hardening.test.ts',
  'test/limits.test.ts',
  'test/webhooks.test.ts',
  'test/redis.test.ts',
  'test/client.test.ts',
  'test/accounts.test.ts',
  'test/dashboard-roles.test.ts',
  'test/openapi.test.ts',
  'test/fuzz.test.ts',
  'test/hostile-servers.test.ts',
  'test/admin-cli.test.ts',
  'test/key-cache.test.ts',
  'test/list-queries.test.ts',
  'test/migrations.test.ts',
  'test/operations.test.ts',
  'test/mcp.test.ts',
  'test/sarif.test.ts',
  'test/retention.test.ts',
  'test/monitoring.test.ts',
  'test/verification.test.ts',
];

// Test files in one worker share what they import (isolate: false): no test mocks a module or changes
// process.env, and every file starts its own servers and databases, so loading the service's modules
// once per worker instead of once per file is safe, and takes 40 s of the run instead of 207 s.
const shared = { testTimeout: 30_000, hookTimeout: 30_000, pool: 'forks' as const, isolate: false };

// Where the PostgreSQL server binaries are missing, CI fails (postgres-setup names the package);
// a developer's machine runs the SQLite project only and says so loudly.
const withPostgres = postgresAvailable() || Boolean(process.env.CI);
if (!withPostgres)
  process.stderr.write(
    '\n*** SKIPPED: the postgres test project needs the Debian package postgresql (apt-get install postgresql) ***\n\n',
  );

export default defineConfig({
  test: {
    // Most suites wait on sockets, child processes and timers, not the CPU: four files at a time on
    // two cores finish the run in about half the time of vitest's default (cores - 1 = one here).
    maxWorkers: 4,
    projects: [
      {
        test: {
          ...shared,
          name: 'sqlite',
          include: ['test/**/*.test.ts'],
          // npm run test:real runs these (vitest.real.config.ts).
          exclude: ['test/real/**'],
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
      ...(withPostgres
        ? [
            {
              test: {
                ...shared,
                name: 'postgres',
                include: ON_BOTH_BACKENDS,
                globalSetup: ['test/support/global-setup.ts', 'test/support/postgres-setup.ts'],
              },
            },
          ]
        : []),
    ],
  },
});
