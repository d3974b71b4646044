import { isLookupId } from '../../shared/text.ts';
import { storedDate, type WriteTransaction } from '../db/database.ts';
import type { DatabaseReader } from '../db/reader.ts';

export interface SessionsToEnd {
  /** Whose sessions end; every operator's when absent. */
  userId?: string;
  /** The one session that stays (the administrator's own, who asked). */
  exceptSessionId?: string;
  /** Only these sessions (picked in a sessions list, or the one a browser held when it signed in again); none if empty. */
  sessionIds?: readonly string[];
}

interface EndedSessions {
  /** Every session whose row went, expired or not: their live sockets must close. */
  ids: string[];
  /** How many of them still worked. */
  active: number;
}

/**
 * Ends sessions by deleting their rows: the cookie is then worth nothing on any instance,
 * since every request reads the session table. Rows of expired sessions go too, but are not
 * counted as active.
 */
export async function deleteSessions(
  trx: WriteTransaction,
  { userId, exceptSessionId, sessionIds }: SessionsToEnd,
): Promise<EndedSessions> {
  // Ids no session can have (a NUL, which PostgreSQL cannot even compare) name none; an empty
  // list names no session (and `IN ()` is no SQL).
  const named = sessionIds?.filter(isLookupId);
  if (named !== undefined && named.length === 0) return { ids: [], active: 0 };
  let query = trx.deleteFrom('session').returning(['id', 'expiresAt']);
  if (userId !== undefined) query = query.where('userId', '=', userId);
  if (exceptSessionId !== undefined) query = query.where('id', '<>', exceptSessionId);
  if (named !== undefined) query = query.where('id', 'in', named);
  const ended = await query.execute();
  const now = Date.now();
  return {
    ids: ended.map((session) => session.id),
    active: ended.filter((session) => new Date(session.expiresAt).getTime() > now).length,
  };
}

/** The ids of an operator's sessions, expired or not. */
export async function sessionIdsOf(reader: DatabaseReader, userId: string): Promise<string[]> {
  const rows = await reader.db
    .selectFrom('session')
    .select('id')
    .where('userId', '=', userId)
    .execute();
  return rows.map((row) => row.id);
}

const isoText = (value: Date | string) => new Date(value).toISOString();

/** An active session as the sessions list needs it; the user agent still raw. */
interface ActiveSession {
  id: string;
  createdAt: string;
  lastActiveAt: string;
  expiresAt: string;
  ipAddress: string | null;
  userAgent: string | null;
}

/**
 * The operator's sessions that still sign in, newest first: the same two conditions as the
 * session reader (session.ts), neither idled out nor older than the maximum, so the list
 * shows exactly the cookies that work. Rows of ended sessions not yet swept stay out of it.
 */
export async function activeSessionsOf(
  reader: DatabaseReader,
  userId: string,
  { now, maxAgeSeconds }: { now: number; maxAgeSeconds: number },
): Promise<ActiveSession[]> {
  const rows = await reader.db
    .selectFrom('session')
    .select(['id', 'createdAt', 'updatedAt', 'expiresAt', 'ipAddress', 'userAgent'])
    .where('userId', '=', userId)
    .where('expiresAt', '>', storedDate(reader.dialect, now))
    .where('createdAt', '>', storedDate(reader.dialect, now - maxAgeSeconds * 1000))
    .orderBy('createdAt', 'desc')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    createdAt: isoText(row.createdAt),
    lastActiveAt: isoText(row.updatedAt),
    expiresAt: isoText(row.expiresAt),
    ipAddress: row.ipAddress || null,
    userAgent: row.userAgent,
  }));
}
