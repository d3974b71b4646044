import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const require = createRequire(import.meta.url);

/**
 * Runs SQLite's WAL checkpoints on a worker thread with its own connection. Left to
 * SQLite, the commit that crosses the threshold also copies the WAL into the database and
 * fsyncs it, stalling every request behind it; a PASSIVE checkpoint beside the writers
 * does not (docs/decisions/0007-background-checkpoints.md).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (error) { parentPort.postMessage(String(error)); }
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message === 'stop') { clearInterval(timer); db.close(); process.exit(0); }
});
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

export function startCheckpointer(
  file: string,
  onError: (message: string) => void,
  intervalMs = 250,
): Checkpointer {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, intervalMs, driver: require.resolve('better-sqlite3') },
  });
  worker.on('message', (message) => onError(String(message)));
  worker.on('error', (error) => onError(String(error)));
  worker.unref();
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        // Held while stopping, so that the process waits for the worker's database to close.
        worker.ref();
        worker.once('exit', () => resolve());
        worker.postMessage('stop');
      }),
  };
}
