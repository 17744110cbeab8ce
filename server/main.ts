import { existsSync } from 'node:fs';
import { openMigratedDatabase } from '../db/database.ts';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from '../services/config.ts';

async function main(): Promise<void> {
  // Settings may also come from a .env file in the working directory; the environment wins.
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig();
  const db = await openMigratedDatabase(config.DATABASE_PATH);
  const app = await buildApp({ db, config });
  let stopping = false;
  // SIGTERM (Docker, systemd, CI) and SIGINT (Ctrl-C): stop taking connections, let requests in
  // flight finish, stop the webhook worker, close the database, exit 0.
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
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
