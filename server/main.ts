import { openMigratedDatabase } from '../db/database.ts';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const db = await openMigratedDatabase(config.DATABASE_PATH);
  const app = await buildApp({ db, config });
  const shutdown = async () => {
    await app.close();
    await db.destroy();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  await app.listen({ port: config.PORT, host: config.HOST });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `Startup failed: ${String(error)}`}\n`);
  process.exit(1);
});
