import type { Database, WriteTransaction } from '../db/database.ts';
import type { BusMessage, EventBus } from './event-bus.ts';

/** Sends a live message once the write it was given with commits, and never if it rolls back. */
type Publish = (message: BusMessage) => Promise<void>;

/**
 * How a request writes: one transaction (`database.write`: group-committed on SQLite), and
 * the live messages that tell every tab about it, published with that write so that they go
 * out only once it has committed (on PostgreSQL, a NOTIFY inside the transaction itself).
 * The work does the SQL through repository functions, which take its transaction and never
 * open one of their own (docs/decisions/0033-one-way-to-write.md).
 */
export function writeWithEvents<T>(
  database: Pick<Database, 'write'>,
  bus: EventBus,
  work: (trx: WriteTransaction, publish: Publish) => Promise<T>,
): Promise<T> {
  return database.write((trx, scope) =>
    work(trx, async (message) => {
      // Sessions that were not there to end close no socket: nothing to tell anyone.
      if (message.kind === 'sessions-ended' && message.sessionIds.length === 0) return;
      await bus.publish(message, scope);
    }),
  );
}
