import type { LiveEvent } from '../../shared/live-events.ts';
import type { WriteScope } from '../db/write-scope.ts';

/**
 * What crosses the bus: an event and who may see it (the members of one book, one account's
 * own tabs when `userId` is given, or everyone when both are null); sessions that ended, whose
 * sockets must close wherever they are held; an account whose access to a book ended (removed,
 * left, or its role changed), whose sockets on that book close; a session that switched books,
 * whose sockets close so that its tabs reload from the new one.
 */
export type BusMessage =
  | { kind: 'event'; ownerId: string | null; userId?: string; event: LiveEvent }
  | { kind: 'sessions-ended'; sessionIds: string[] }
  | { kind: 'book-access-changed'; bookId: string; userId: string }
  | { kind: 'book-switched'; sessionId: string };

/**
 * What listeners receive: the messages, plus `resync` when this instance's feed was broken
 * and it cannot know what it missed (every socket must reload what it shows).
 */
export type BusDelivery = BusMessage | { kind: 'resync' };

export type BusListener = (delivery: BusDelivery) => void;

/**
 * Carries committed changes to every connected socket. Given the write it belongs to, a
 * message goes out only if that write commits; without one, at once.
 */
export interface EventBus {
  publish(message: BusMessage, write?: WriteScope): Promise<void>;
  subscribe(listener: BusListener): () => void;
  close(): Promise<void>;
}

/** One server: delivery in process, after the commit. */
export function createInProcessBus(): EventBus {
  const listeners = new Set<BusListener>();
  const deliver = (message: BusMessage) => {
    for (const listener of listeners) listener(message);
  };
  return {
    async publish(message, write) {
      if (write) write.afterCommit(() => deliver(message));
      else deliver(message);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
    },
  };
}
