// The day's collection round: who is on it, and who was dealt with.
import { sql } from 'kysely';
import { COLLECT_REMIND_EVERY_DAYS } from '../../shared/dues-schema.ts';
import { addDays } from '../../shared/ledger-schema.ts';
import type { ClientRow } from '../clients/client-rows.ts';
import { compiledQuery } from '../db/compiled-queries.ts';
import type { WriteTransaction } from '../db/database.ts';

export type RoundAction = 'reminded' | 'paid' | 'promised' | 'skipped';

/** The first day a reminder no longer counts as recent on the round of `on`. */
export function remindedRecentlySince(on: string): string {
  return addDays(on, -COLLECT_REMIND_EVERY_DAYS);
}

type RoundFields = Pick<ClientRow, 'oldest_due_on' | 'last_reminded_on' | 'promise_by'>;

/**
 * Whether a client is on the round of `on`: an open promise due that day, or broken in the 7
 * days before (after that the client comes back as overdue, not every day as broken), or
 * something overdue and no reminder in the 7 days before. The SQL twin is `roundCondition`.
 */
export function isOnRound(row: RoundFields, on: string): boolean {
  const since = remindedRecentlySince(on);
  if (row.promise_by !== null && row.promise_by <= on && row.promise_by >= since) return true;
  return (
    row.oldest_due_on !== null &&
    row.oldest_due_on < on &&
    (row.last_reminded_on === null || row.last_reminded_on < since)
  );
}

/**
 * The rounds that can be asked for: the panel's today and the day either side (a browser in
 * another time zone may already be, or still be, on another day).
 */
export function roundDays(today: string): [string, string, string] {
  return [addDays(today, -1), today, addDays(today, 1)];
}

/**
 * The rounds a payment deals with the client on, of those that can be asked for (`roundDays`):
 * the round of the payment's own date, and each later one it
 * leaves nothing overdue on (`oldestDueAfter`: the client's oldest unpaid due date after it).
 * An earlier payment that leaves some overdue is the book being written up: it deals with no
 * later round.
 */
export function roundsPaidOn(paidOn: string, today: string, oldestDueAfter: string | null) {
  return roundDays(today).filter(
    (day) => paidOn === day || (paidOn < day && (oldestDueAfter === null || oldestDueAfter >= day)),
  );
}

/** `isOnRound` as SQL over clients `c`. */
export function roundCondition(on: string) {
  const since = remindedRecentlySince(on);
  return sql<boolean>`((c.promise_by <= ${on} AND c.promise_by >= ${since}) OR (c.oldest_due_on < ${on}
    AND (c.last_reminded_on IS NULL OR c.last_reminded_on < ${since})))`;
}

const markDoneQuery = compiledQuery(
  'mark-done-on-round',
  (
    _db,
    p: { ownerId: string; on: string; clientId: string; action: RoundAction; doneAt: string },
  ) =>
    sql`INSERT INTO collect_done (owner_id, on_date, client_id, action, done_at)
      VALUES (${p.ownerId}, ${p.on}, ${p.clientId}, ${p.action}, ${p.doneAt})
      ON CONFLICT (owner_id, on_date, client_id) DO NOTHING`,
);

/**
 * Marks a client dealt with by what was done today (a reminder, a promise): on today's round
 * when they were on it (`before`, the row as it was before the write), and on yesterday's (a
 * browser still on that day asks for it) when this took them off it (`after`): a client
 * leaving that list counts there as done, not as nobody. Not on tomorrow's: a mark there
 * would hide whatever brings the client back tomorrow (a promise broken overnight).
 */
export async function markDealtWithToday(
  trx: WriteTransaction,
  ownerId: string,
  before: RoundFields & { id: string },
  after: RoundFields,
  today: string,
  action: RoundAction,
): Promise<void> {
  for (const day of roundDays(today).filter((day) => day <= today)) {
    const dealtWith = isOnRound(before, day) && (day === today || !isOnRound(after, day));
    if (dealtWith) await markDone(trx, ownerId, before.id, day, action);
  }
}

/**
 * Marks a client dealt with on the round of `on`, when it is on it (`row` as it was before
 * the write), in the write's transaction; the first action of the day counts.
 */
export async function markDealtWith(
  trx: WriteTransaction,
  ownerId: string,
  row: RoundFields & { id: string },
  on: string,
  action: RoundAction,
): Promise<boolean> {
  if (!isOnRound(row, on)) return false;
  await markDone(trx, ownerId, row.id, on, action);
  return true;
}

/** The client's mark as dealt with on the round of `on` (the first action of the day counts). */
function markDone(
  trx: WriteTransaction,
  ownerId: string,
  clientId: string,
  on: string,
  action: RoundAction,
): Promise<unknown> {
  return markDoneQuery(trx, { ownerId, on, clientId, action, doneAt: new Date().toISOString() });
}
