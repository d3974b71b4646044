import type { LiveEvent } from '../../shared/live-events.ts';

/** An event and who may see it: one operator, or everyone (ownerId null). */
export interface BusMessage {
  ownerId: string | null;
  event: LiveEvent;
}

export type BusListener = (message: BusMessage) => void;

/**
 * Carries committed changes to every connected socket. The in-process bus serves one
 * server; a PostgreSQL LISTEN/NOTIFY bus fits the same shape for many instances.
 */
export interface EventBus {
  publish(message: BusMessage): Promise<void>;
  subscribe(listener: BusListener): () => void;
  close(): Promise<void>;
}

export function createInProcessBus(): EventBus {
  const listeners = new Set<BusListener>();
  return {
    async publish(message) {
      for (const listener of listeners) listener(message);
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
