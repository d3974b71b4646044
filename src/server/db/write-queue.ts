import type { Kysely, Transaction } from 'kysely';
import { runStatement } from './compiled-queries.ts';
import type { DatabaseSchema } from './schema.ts';
import { type WriteScope, writeScope } from './write-scope.ts';

type Work<T> = (trx: Transaction<DatabaseSchema>, scope: WriteScope) => Promise<T>;

interface Queued {
  work: Work<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** At most this many writes share one commit. */
export const MAX_BATCH = 64;

interface WriteQueueHooks {
  /** Whether the connection is still inside the batch's transaction. */
  inTransaction?: () => boolean;
  /** Called with each batch's transaction as it opens (to run statements on it directly). */
  opened?: (trx: Transaction<DatabaseSchema>) => void;
  /**
   * What a batch waits for before its transaction opens (the WAL's restart point), if
   * anything; writes that arrive meanwhile join the batch.
   */
  beforeBatch?: () => Promise<void> | undefined;
}

/**
 * Group commit for SQLite: writes that arrive together share one transaction, so one
 * fsync (synchronous=FULL) serves them all. Each write runs in its own savepoint, so a
 * write that fails is undone alone, and every caller is answered only after the COMMIT
 * that made its write durable; so do the write's after-commit actions (its live events).
 */
export function createWriteQueue(
  db: Kysely<DatabaseSchema>,
  {
    inTransaction = () => true,
    opened = () => {},
    beforeBatch = () => undefined,
  }: WriteQueueHooks = {},
) {
  let queue: Queued[] = [];
  let flushing = false;

  async function flush(): Promise<void> {
    flushing = true;
    while (queue.length > 0) {
      const wait = beforeBatch();
      if (wait) await wait;
      const batch = queue.slice(0, MAX_BATCH);
      queue = queue.slice(batch.length);
      const outcomes: { ok: boolean; value: unknown; committed?: () => void }[] = [];
      try {
        await db.transaction().execute(async (trx) => {
          opened(trx);
          for (const item of batch) {
            const scope = writeScope(trx);
            await runStatement(trx, 'SAVEPOINT write_item');
            try {
              const value = await item.work(trx, scope);
              await runStatement(trx, 'RELEASE write_item');
              outcomes.push({ ok: true, value, committed: scope.committed });
            } catch (error) {
              // On a full disk or an I/O error SQLite may roll the whole transaction back
              // by itself, savepoints and all: the batch is lost, not just this write, and
              // every write in it is refused with that error (a 507 for a full disk).
              if (!inTransaction()) throw error;
              await runStatement(trx, 'ROLLBACK TO write_item');
              await runStatement(trx, 'RELEASE write_item');
              outcomes.push({ ok: false, value: error });
            }
          }
        });
      } catch (error) {
        // The commit itself failed, or SQLite rolled the batch back: nothing in it was
        // stored. The connection is out of the transaction again, so the queue goes on.
        for (const item of batch) item.reject(error);
        continue;
      }
      batch.forEach((item, index) => {
        const outcome = outcomes[index];
        if (outcome?.ok) {
          outcome.committed?.();
          item.resolve(outcome.value);
        } else {
          item.reject(outcome?.value);
        }
      });
    }
    flushing = false;
  }

  return function write<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      queue.push({
        work: work as Work<unknown>,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      // Wait one turn of the event loop so that concurrent requests join the batch.
      if (!flushing && queue.length === 1) setImmediate(() => void flush());
    });
  };
}
