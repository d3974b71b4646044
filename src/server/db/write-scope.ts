import type { Transaction } from 'kysely';
import type { DatabaseSchema } from './schema.ts';

/**
 * One write as its work sees it: the transaction, and actions to run once the write has
 * committed (never if it rolls back). Live events hang on it: on PostgreSQL a NOTIFY goes
 * inside the transaction itself; in one process, delivery waits for the commit.
 */
export interface WriteScope {
  trx: Transaction<DatabaseSchema>;
  afterCommit(action: () => void): void;
}

export function writeScope(trx: Transaction<DatabaseSchema>): WriteScope & { committed(): void } {
  const actions: (() => void)[] = [];
  return {
    trx,
    afterCommit: (action) => actions.push(action),
    committed() {
      for (const action of actions) {
        try {
          action();
        } catch (error) {
          // One failing action must not keep the others (or other writes) from running.
          console.error('an after-commit action failed', error);
        }
      }
    },
  };
}
