import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export interface Checkpointer {
  /** Frames copied into the database file so far (for tests and metrics). */
  readonly checkpointedFrames: () => number;
  stop(): Promise<void>;
}

// The worker's own code, plain CommonJS so it runs the same under tsx, vitest and the build.
// PASSIVE never waits for readers or writers. TRUNCATE blocks the service's writers while it runs,
// and their wait is synchronous, on the event loop: so it runs only when the WAL has grown large
// (a bulk load) and PASSIVE has already copied every frame, leaving it nothing to copy but the
// truncation, and it gives up after a short wait for readers instead of holding writers for long.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { statSync } = require('node:fs');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('busy_timeout = ' + workerData.truncateWaitMs);
const walSize = () => { try { return statSync(workerData.path + '-wal').size; } catch { return 0; } };
const timer = setInterval(() => {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    if (result.checkpointed > 0) parentPort.postMessage(result.checkpointed);
    if (result.busy === 0 && result.checkpointed === result.log && walSize() > workerData.truncateAboveBytes)
      db.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // Busy or locked: the next turn tries again.
  }
}, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * Moves WAL checkpoints (and so SQLite's fsyncs) off the event loop: the service's own connection
 * runs with `wal_autocheckpoint = 0` and this worker thread, on a connection of its own, copies the
 * WAL into the database file every `everyMs`.
 */
export function startCheckpointer(
  path: string,
  everyMs = 1_000,
  truncateAboveBytes = 64 * 1024 * 1024,
  truncateWaitMs = 100,
): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { path, driver, everyMs, truncateAboveBytes, truncateWaitMs },
  });
  let frames = 0;
  worker.on('message', (checkpointed: number) => (frames += checkpointed));
  // A failing checkpointer must not take the service down: commits still succeed, the WAL grows.
  worker.on('error', () => {});
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    checkpointedFrames: () => frames,
    async stop() {
      worker.postMessage('stop');
      await exited;
    },
  };
}
