import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.ts';
import { dropEmptyDueSums } from '../dues/unpaid-repository.ts';
import { purgeDeletedClients } from './clients-deletion.ts';

/** How often deleted clients past their restore window are looked for. */
const PURGE_INTERVAL_MS = 60_000;

export interface PurgeJob {
  stop(): void;
}

/**
 * Removes deleted clients for good once they can no longer be restored (and the ageing's sums
 * that no client has any more), every `intervalMs`,
 * on every instance (a delete also clears them out first, but an operator who deletes
 * nothing more would otherwise keep them). A failed round is logged and the next one tries
 * again.
 */
export function startPurgeJob(
  database: Pick<Database, 'write'>,
  log: Pick<FastifyBaseLogger, 'warn'>,
  intervalMs = PURGE_INTERVAL_MS,
): PurgeJob {
  const timer = setInterval(() => {
    database
      .write(async (trx) => {
        await purgeDeletedClients(trx);
        await dropEmptyDueSums(trx);
      })
      .catch((error: unknown) => {
        log.warn({ err: error }, 'could not remove expired deleted clients');
      });
  }, intervalMs);
  // A timer must not keep a process alive that has nothing else left to do.
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
