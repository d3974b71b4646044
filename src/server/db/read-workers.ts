import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { inlineLimits, limitedSource } from './inline-limits.ts';

const require = createRequire(import.meta.url);

interface ReadStatement {
  sql: string;
  parameters: readonly unknown[];
}

/**
 * Runs read-only SQL on worker threads, each with its own connection to the SQLite file, so
 * that a heavy read (a search over thousands of matches) does not hold the event loop, which
 * better-sqlite3 otherwise blocks for the whole query. WAL lets these connections read the
 * latest commit while the main one writes; the statements of one call run in one read
 * transaction, so a page and its totals see the same data.
 */
export interface ReadWorkers {
  run(statements: ReadStatement[]): Promise<unknown[][]>;
  close(): Promise<void>;
}

// The worker reads integers exactly, as the main connection does (sqlite-connection.ts).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true });
db.pragma('busy_timeout = 5000');
const statements = new Map();
const exact = (value) =>
  typeof value === 'bigint' && value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
    ? Number(value) : value;
function prepare(sql) {
  let statement = statements.get(sql);
  if (!statement) {
    if (statements.size > 200) statements.clear();
    statement = db.prepare(sql);
    statement.safeIntegers(true);
    statements.set(sql, statement);
  }
  return statement;
}
const readAll = db.transaction((list) => list.map(({ sql, parameters }) =>
  prepare(sql).all(...parameters).map((row) => {
    for (const key in row) row[key] = exact(row[key]);
    return row;
  })));
parentPort.on('message', (message) => {
  if (message === 'stop') { db.close(); process.exit(0); }
  try {
    parentPort.postMessage({ id: message.id, rows: readAll(message.statements) });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: { message: String(error && error.message), code: error && error.code } });
  }
});
`;

interface Pending {
  resolve(rows: unknown[][]): void;
  reject(error: Error): void;
}

export function startReadWorkers(file: string, size: number): ReadWorkers {
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let turn = 0;
  const load = new Map<Worker, number>();
  const workers = Array.from({ length: size }, () => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file, driver: require.resolve('better-sqlite3') },
    });
    worker.unref();
    load.set(worker, 0);
    worker.on(
      'message',
      (message: { id: number; rows?: unknown[][]; error?: { message: string; code?: string } }) => {
        load.set(worker, (load.get(worker) ?? 1) - 1);
        const waiting = pending.get(message.id);
        if (!waiting) return;
        pending.delete(message.id);
        if (message.error) {
          waiting.reject(
            Object.assign(new Error(message.error.message), { code: message.error.code }),
          );
        } else {
          waiting.resolve(message.rows ?? []);
        }
      },
    );
    worker.on('error', (error) => {
      for (const waiting of pending.values()) waiting.reject(error);
      pending.clear();
    });
    return worker;
  });

  return {
    run(statements) {
      // The least busy worker takes it (ties in turn).
      turn = (turn + 1) % workers.length;
      const worker = workers.reduce((best, candidate, index) =>
        (load.get(candidate) ?? 0) < (load.get(best) ?? 0) ||
        ((load.get(candidate) ?? 0) === (load.get(best) ?? 0) && index === turn)
          ? candidate
          : best,
      );
      const id = nextId++;
      load.set(worker, (load.get(worker) ?? 0) + 1);
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        // Each LIMIT written into the text, as on the main connection (inline-limits.ts).
        worker.postMessage({
          id,
          statements: statements.map(({ sql, parameters }) =>
            inlineLimits(limitedSource(sql), sql, parameters),
          ),
        });
      });
    },
    async close() {
      await Promise.all(
        workers.map(
          (worker) =>
            new Promise<void>((resolve) => {
              worker.ref();
              worker.once('exit', () => resolve());
              worker.postMessage('stop');
            }),
        ),
      );
      for (const waiting of pending.values()) waiting.reject(new Error('the database closed'));
      pending.clear();
    },
  };
}
