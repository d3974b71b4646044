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
/** One PASSIVE checkpoint: how many frames the WAL holds (undefined when it failed). */
function checkpoint() {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    if (failing) { failing = false; parentPort.postMessage({ kind: 'recovered' }); }
    return result.log;
  } catch (error) {
    if (!failing) { failing = true; parentPort.postMessage({ kind: 'failed', message: String(error) }); }
    return undefined;
  }
}
const timer = setInterval(() => {
  const frames = checkpoint();
  if (frames !== undefined && frames >= workerData.restartFrames) parentPort.postMessage({ kind: 'long' });
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message === 'stop') { clearInterval(timer); db.close(); process.exit(0); }
  if (message === 'catch-up') {
    // Answered either way: a checkpoint that could not copy everything only means no restart.
    checkpoint();
    parentPort.postMessage({ kind: 'caught-up' });
  }
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
  /**
   * Before a write transaction: while the WAL has grown past `restartFrames`, a checkpoint
   * of all of it, which the caller waits for (undefined: nothing to wait for). See below.
   */
  restartPoint(): Promise<void> | undefined;
  stop(): Promise<void>;
}

type WorkerMessage =
  | { kind: 'failed'; message: string }
  | { kind: 'recovered' }
  | { kind: 'long' }
  | { kind: 'caught-up' };

/**
 * SQLite writes the WAL from its start again only when a write transaction begins with every
 * frame of it already in the database. Under a steady stream of writes that never happens:
 * each checkpoint beside them ends after the next commit, so the WAL grew by every write for
 * as long as they came (2.5 GB in a minute of the ledger bench), and every write got slower
 * as it grew (twice the CPU a payment by then). So once a checkpoint finds it longer than
 * this many frames (128 MiB of 4 KiB pages), the next write transaction waits for one
 * checkpoint of all of it, and the WAL starts again under it (decision 0007).
 */
export const RESTART_FRAMES = 32_768;

/** The longest a write waits for that checkpoint: a stuck worker holds no write up for good. */
const RESTART_WAIT_MS = 250;

export function startCheckpointer(
  file: string,
  events: CheckpointerEvents,
  { intervalMs = 250, restartFrames = RESTART_FRAMES } = {},
): Checkpointer {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, intervalMs, restartFrames, driver: require.resolve('better-sqlite3') },
  });
  let stopping = false;
  let exited = false;
  let failure: string | undefined;
  let long = false;
  let caughtUp: (() => void) | undefined;
  worker.on('message', (message: WorkerMessage) => {
    if (message.kind === 'failed') events.onFailure(message.message);
    else if (message.kind === 'recovered') events.onRecovery();
    else if (message.kind === 'long') long = true;
    else caughtUp?.();
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
    restartPoint() {
      if (!long || exited || stopping) return undefined;
      long = false;
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timeout);
          caughtUp = undefined;
          resolve();
        };
        const timeout = setTimeout(done, RESTART_WAIT_MS);
        caughtUp = done;
        worker.postMessage('catch-up');
      });
    },
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
