import type { Transaction } from 'kysely';
import type { Database, WriteScope } from '../db/database.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import type { EventBus } from '../live/event-bus.ts';

export interface SessionsToEnd {
  /** Whose sessions end; every operator's when absent. */
  userId?: string;
  /** The one session that stays (the administrator's own, who asked). */
  exceptSessionId?: string;
  /** Only these sessions (picked in a sessions list, or the one a browser held when it signed in again); none if empty. */
  sessionIds?: readonly string[];
}

/**
 * Ends sessions: deletes their rows (the cookie is then worth nothing on any instance, since
 * every request reads the session table) and, once that commits, tells every instance on the
 * bus to close their live sockets. Answers how many were still active: rows of expired
 * sessions go too, but are not counted.
 */
export async function endSessions(
  database: Database,
  bus: EventBus,
  which: SessionsToEnd,
): Promise<number> {
  // An empty list names no session (and `IN ()` is no SQL).
  if (which.sessionIds !== undefined && which.sessionIds.length === 0) return 0;
  return database.write((trx, write) => endSessionsWithin(trx, write, bus, which));
}

/**
 * endSessions as part of a write that does more (a deactivation): the sessions end, and
 * their sockets close, only if that whole write commits.
 */
export async function endSessionsWithin(
  trx: Transaction<DatabaseSchema>,
  write: WriteScope,
  bus: EventBus,
  { userId, exceptSessionId, sessionIds }: SessionsToEnd,
): Promise<number> {
  if (sessionIds !== undefined && sessionIds.length === 0) return 0;
  let query = trx.deleteFrom('session').returning(['id', 'expiresAt']);
  if (userId !== undefined) query = query.where('userId', '=', userId);
  if (exceptSessionId !== undefined) query = query.where('id', '<>', exceptSessionId);
  if (sessionIds !== undefined) query = query.where('id', 'in', [...sessionIds]);
  const ended = await query.execute();
  if (ended.length > 0) {
    const endedIds = ended.map((session) => session.id);
    await bus.publish({ kind: 'sessions-ended', sessionIds: endedIds }, write);
  }
  const now = Date.now();
  return ended.filter((session) => new Date(session.expiresAt).getTime() > now).length;
}

/** The ids of an operator's sessions, expired or not. */
export async function sessionIdsOf(database: Database, userId: string): Promise<string[]> {
  const rows = await database.db
    .selectFrom('session')
    .select('id')
    .where('userId', '=', userId)
    .execute();
  return rows.map((row) => row.id);
}
