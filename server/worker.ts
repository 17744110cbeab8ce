import { existsSync } from 'node:fs';
import { openMigratedDatabase } from '../db/database.ts';
import { ConfigError, databaseLocation, loadConfig } from '../infra/config.ts';
import { processLogger } from '../services/logger.ts';
import { startWorkers } from '../services/workers.ts';

/** `npm run worker`: the background workers alone, for deployments that run them apart from the API. */
async function main(): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig();
  const log = processLogger(config.LOG_LEVEL, 'workers');
  const db = await openMigratedDatabase(databaseLocation(config), { backgroundCheckpoints: true });
  const workers = await startWorkers({ db, config }, log);
  log.info('workers started');
  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await workers.stop();
    await db.destroy();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `Worker startup failed: ${String(error)}`}\n`);
  process.exit(1);
});
