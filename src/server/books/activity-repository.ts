import {
  type ActivityAction,
  type ActivityDetails,
  type ActivityItem,
  activityDetailsSchema,
} from '../../shared/book-schema.ts';
import { isLookupId } from '../../shared/text.ts';
import { compiledQuery } from '../db/compiled-queries.ts';
import type { WriteTransaction } from '../db/database.ts';
import { exactInteger } from '../db/integers.ts';
import { handleOf, type ReadSource } from '../db/reader.ts';
import type { BookMember } from './book-member.ts';

/** One line of a book's activity log: who did what, about which client. */
export interface Activity {
  action: ActivityAction;
  clientId?: string | null;
  /** In English, for API clients (the web app words it from `action` and `details`). */
  summary: string;
  details?: ActivityDetails;
}

interface ActivityRow {
  bookId: string;
  at: string;
  actorId: string;
  action: string;
  clientId: string | null;
  summary: string;
  details: string | null;
}

/** A line's columns (from placeholders, when the compiled insert is built). */
function activityColumns(row: ActivityRow) {
  return {
    book_id: row.bookId,
    at: row.at,
    actor_id: row.actorId,
    action: row.action,
    client_id: row.clientId,
    summary: row.summary,
    details: row.details,
  };
}

/**
 * One line, compiled once: nearly every write records exactly one (a payment among them), and
 * built afresh each time the insert cost a payment more than the statement itself.
 */
const insertActivityQuery = compiledQuery('insert-activity', (db, p: ActivityRow) =>
  db.insertInto('activity').values(activityColumns(p)),
);

/**
 * Appends to the book's activity log, in the transaction of the change it records: the log
 * holds a change exactly when the change happened.
 */
export async function recordActivity(
  trx: WriteTransaction,
  member: BookMember,
  activity: Activity | readonly Activity[],
  at: Date = new Date(),
): Promise<void> {
  const rows = (Array.isArray(activity) ? activity : [activity as Activity]).map(
    (line): ActivityRow => ({
      bookId: member.bookId,
      at: at.toISOString(),
      actorId: member.id,
      action: line.action,
      clientId: line.clientId ?? null,
      summary: line.summary,
      details: line.details ? JSON.stringify(line.details) : null,
    }),
  );
  const [only] = rows;
  if (only && rows.length === 1) {
    await insertActivityQuery(trx, only);
    return;
  }
  if (rows.length === 0) return;
  await trx.insertInto('activity').values(rows.map(activityColumns)).execute();
}

/** A line's stored details; anything unreadable reads as none (the line still says what). */
function detailsOf(stored: string | null): ActivityDetails | null {
  if (stored === null) return null;
  try {
    const read = activityDetailsSchema.safeParse(JSON.parse(stored));
    return read.success ? read.data : null;
  } catch {
    return null;
  }
}

export const ACTIVITY_PAGE_SIZE = 50;

export interface ActivityFilter {
  clientId?: string | undefined;
  memberId?: string | undefined;
  /** The place of the last line of the page before: the next page is older. */
  before?: bigint | undefined;
  limit?: number;
}

/** A line of the log with its place in it (the route shows that place enciphered). */
export type ActivityLine = Omit<ActivityItem, 'id'> & { seq: bigint };

/** A book's activity, newest first, a page at a time, along one of its indexes. */
export async function listActivity(
  source: ReadSource,
  bookId: string,
  { clientId, memberId, before, limit = ACTIVITY_PAGE_SIZE }: ActivityFilter,
): Promise<{ items: ActivityLine[]; more: boolean }> {
  // An id no row can have (a NUL, which PostgreSQL cannot compare) has no activity.
  if ([clientId, memberId].some((id) => id !== undefined && !isLookupId(id))) {
    return { items: [], more: false };
  }
  let query = handleOf(source)
    .selectFrom('activity as a')
    .innerJoin('user as u', 'u.id', 'a.actor_id')
    // The client's name as it is now, while the client is kept (deleted ones until purged).
    .leftJoin('clients as c', 'c.id', 'a.client_id')
    .select([
      'a.seq',
      'a.at',
      'a.actor_id',
      'u.email',
      'a.action',
      'a.client_id',
      'a.summary',
      'a.details',
      'c.fname',
      'c.lname',
    ])
    .where('a.book_id', '=', bookId);
  if (clientId !== undefined) query = query.where('a.client_id', '=', clientId);
  if (memberId !== undefined) query = query.where('a.actor_id', '=', memberId);
  if (before !== undefined) query = query.where('a.seq', '<', before as never);
  const rows = await query
    .orderBy('a.seq', 'desc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const items = page.map((row) => ({
    seq: exactInteger(row.seq),
    at: row.at,
    actor: { id: row.actor_id, email: row.email },
    action: row.action as ActivityAction,
    clientId: row.client_id,
    clientName: row.fname === null || row.lname === null ? null : `${row.fname} ${row.lname}`,
    summary: row.summary,
    details: detailsOf(row.details),
  }));
  return { items, more: rows.length > limit };
}
