import { existsSync } from 'node:fs';
import { openMigratedDatabase } from '../db/database.ts';
import { ConfigError, databaseLocation, loadConfig } from '../infra/config.ts';
import { startWorkers, type Workers } from '../services/workers.ts';
import { buildApp } from './app.ts';

/** `npm start`: the HTTP server and, unless WORKERS=false, the background workers in one process. */
async function main(): Promise<void> {
  // Settings may also come from a .env file in the working directory; the environment wins.
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig();
  const db = await openMigratedDatabase(databaseLocation(config), { backgroundCheckpoints: true });
  const app = await buildApp({ db, config });
  const workers: Workers | null = config.WORKERS
    ? await startWorkers({ db, config }, app.log.child({ component: 'workers' }))
    : null;
  let stopping = false;
  // SIGTERM (Docker, systemd, CI) and SIGINT (Ctrl-C): stop taking connections, let requests in
  // flight finish, stop the workers, close the database, exit 0.
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await workers?.stop();
    await db.destroy();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  await app.listen({ port: config.PORT, host: config.HOST });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `Startup failed: ${String(error)}`}\n`);
  process.exit(1);
});
