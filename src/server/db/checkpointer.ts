import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const require = createRequire(import.meta.url);

/**
 * Runs SQLite's WAL checkpoints on a worker thread with its own connection. Left to
 * SQLite, the commit that crosses the threshold also copies the WAL into the database and
 * fsyncs it, stalling every request behind it; a PASSIVE checkpoint beside the writers
 * does not (docs/decisions/0007-background-checkpoints.md).
 *
 * A checkpoint that fails (a full disk, an I/O error) loses nothing: the commits stay in the
 * WAL and the next tick tries again. Only the first failure of a streak and the recovery are
 * reported, not one message every tick while the disk stays full.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
let failing = false;
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    if (failing) { failing = false; parentPort.postMessage({ kind: 'recovered' }); }
  } catch (error) {
    if (!failing) { failing = true; parentPort.postMessage({ kind: 'failed', message: String(error) }); }
  }
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message === 'stop') { clearInterval(timer); db.close(); process.exit(0); }
});
`;

interface CheckpointerEvents {
  /** A checkpoint failed; the next ones are retried quietly until one works. */
  onFailure(message: string): void;
  onRecovery(): void;
  /** The worker is gone: SQLite must checkpoint by itself again. */
  onStopped(message: string): void;
}

interface Checkpointer {
  stop(): Promise<void>;
}

type WorkerMessage = { kind: 'failed'; message: string } | { kind: 'recovered' };

export function startCheckpointer(
  file: string,
  events: CheckpointerEvents,
  intervalMs = 250,
): Checkpointer {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, intervalMs, driver: require.resolve('better-sqlite3') },
  });
  let stopping = false;
  let exited = false;
  let failure: string | undefined;
  worker.on('message', (message: WorkerMessage) => {
    if (message.kind === 'failed') events.onFailure(message.message);
    else events.onRecovery();
  });
  // An error is followed by an exit: the first one says why.
  worker.on('error', (error) => {
    failure ??= String(error);
  });
  worker.on('exit', (code) => {
    exited = true;
    if (!stopping) events.onStopped(failure ?? `the checkpoint worker exited with code ${code}`);
  });
  worker.unref();
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        stopping = true;
        if (exited) return resolve();
        // Held while stopping, so that the process waits for the worker's database to close.
        worker.ref();
        worker.once('exit', () => resolve());
        worker.postMessage('stop');
      }),
  };
}
