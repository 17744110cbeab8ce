import { startPostgres } from './postgres.ts';

/**
 * The postgres project of vitest.config.ts: one throwaway server for the run. Test workers start
 * after this and inherit TEST_POSTGRES_URL, so startApi gives each service its own database there.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const server = await startPostgres();
  process.env.TEST_POSTGRES_URL = server.url;
  return () => server.stop();
}
