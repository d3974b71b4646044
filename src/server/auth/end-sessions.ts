import type { Database } from '../db/database.ts';
import type { EventBus } from '../live/event-bus.ts';
import { writeWithEvents } from '../live/write-with-events.ts';
import { deleteSessions, type SessionsToEnd } from './sessions-repository.ts';

/**
 * Ends sessions in a write of their own, as the routes that do nothing else do (sign-outs,
 * a sign-in replacing the session the browser held, an administrator ending someone's):
 * once it commits, every instance closes those sessions' live sockets. Answers how many
 * were still active. A write that does more ends them with deleteSessions in its own work.
 */
export function endSessions(
  database: Pick<Database, 'write'>,
  bus: EventBus,
  which: SessionsToEnd,
): Promise<number> {
  // No session named: no write to wait for.
  if (which.sessionIds?.length === 0) return Promise.resolve(0);
  return writeWithEvents(database, bus, async (trx, publish) => {
    const ended = await deleteSessions(trx, which);
    await publish({ kind: 'sessions-ended', sessionIds: ended.ids });
    return ended.active;
  });
}
