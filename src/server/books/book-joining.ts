import type { WriteTransaction } from '../db/database.ts';
import type { BusMessage } from '../live/event-bus.ts';
import { recordActivity } from './activity-repository.ts';
import { type Acceptance, acceptInvite, markBookUsed } from './books-repository.ts';

type Publish = (message: BusMessage) => Promise<void>;

/**
 * Joins the book an invitation is for: the account becomes a member with its role, the book
 * becomes current for the session that accepted it (or every session of an account just made),
 * the log says so, and the members' pages learn it live.
 */
export async function joinByInvite(
  trx: WriteTransaction,
  publish: Publish,
  user: { id: string; email: string },
  token: string,
  where: { sessionId: string } | { everySession: true },
  /** A sign-up's hold on the invitation (`holdInvite`). */
  heldAt?: string,
): Promise<Acceptance> {
  const outcome = await acceptInvite(trx, token, user.id, heldAt);
  if (outcome.kind !== 'in-book') return outcome;
  let sessions = trx.updateTable('session').set({ current_book_id: outcome.book.id });
  sessions =
    'sessionId' in where
      ? sessions.where('id', '=', where.sessionId)
      : sessions.where('userId', '=', user.id);
  await sessions.execute();
  await markBookUsed(trx, user.id, outcome.book.id);
  if (outcome.joined) {
    await recordActivity(
      trx,
      { ...user, bookId: outcome.book.id },
      { action: 'member.joined', summary: `${user.email} joined as ${outcome.book.role}` },
    );
    await publish({ kind: 'event', ownerId: outcome.book.id, event: { type: 'members.updated' } });
  }
  return outcome;
}
