import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { BookRole } from '../../shared/book-roles.ts';
import { type Book, bookRoleSchema, type Member } from '../../shared/book-schema.ts';
import { isLookupId } from '../../shared/text.ts';
import type { WriteTransaction } from '../db/database.ts';
import { handleOf, type ReadSource } from '../db/reader.ts';

/** A book as its member sees it, from the session's point of view. */
export async function booksOf(
  source: ReadSource,
  userId: string,
  currentBookId: string | null,
): Promise<Book[]> {
  const rows = await handleOf(source)
    .selectFrom('book_members as m')
    .innerJoin('books as b', 'b.id', 'm.book_id')
    .select(['b.id', 'b.name', 'm.role'])
    .where('m.user_id', '=', userId)
    .orderBy('m.joined_at')
    .orderBy('b.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    role: bookRoleSchema.parse(row.role),
    current: row.id === currentBookId,
  }));
}

/** The book and this account's role in it, or undefined when it is not a member. */
export async function bookOfMember(
  source: ReadSource,
  userId: string,
  bookId: string,
): Promise<{ id: string; name: string; role: BookRole } | undefined> {
  if (!isLookupId(bookId)) return undefined;
  const row = await handleOf(source)
    .selectFrom('book_members as m')
    .innerJoin('books as b', 'b.id', 'm.book_id')
    .select(['b.id', 'b.name', 'm.role'])
    .where('m.user_id', '=', userId)
    .where('m.book_id', '=', bookId)
    .executeTakeFirst();
  return row && { id: row.id, name: row.name, role: bookRoleSchema.parse(row.role) };
}

/**
 * A new account's own book: it takes the account's id (as the books made by migration 0020
 * did), so a session without a chosen book works there. Made again, it changes nothing.
 */
export async function makeOwnBook(
  trx: WriteTransaction,
  user: { id: string; name: string; email: string },
): Promise<void> {
  const now = new Date().toISOString();
  await trx
    .insertInto('books')
    .values({ id: user.id, name: user.name.trim() || user.email, created_at: now })
    .onConflict((c) => c.column('id').doNothing())
    .execute();
  await trx
    .insertInto('book_members')
    .values({ book_id: user.id, user_id: user.id, role: 'owner', joined_at: now })
    .onConflict((c) => c.columns(['book_id', 'user_id']).doNothing())
    .execute();
}

/** A new book, owned by the account that made it. */
export async function createBook(
  trx: WriteTransaction,
  userId: string,
  name: string,
): Promise<{ id: string; name: string; role: BookRole }> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await trx.insertInto('books').values({ id, name, created_at: now }).execute();
  await trx
    .insertInto('book_members')
    .values({ book_id: id, user_id: userId, role: 'owner', joined_at: now })
    .execute();
  return { id, name, role: 'owner' };
}

/** Where this session works from now on, and where its account's next sign-in starts. */
export async function setCurrentBook(
  trx: WriteTransaction,
  session: { sessionId: string; userId: string },
  bookId: string,
): Promise<void> {
  await trx
    .updateTable('session')
    .set({ current_book_id: bookId })
    .where('id', '=', session.sessionId)
    .execute();
  await markBookUsed(trx, session.userId, bookId);
}

/** An account's membership of a book is the one it worked in last (it just joined, say). */
export async function markBookUsed(
  trx: WriteTransaction,
  userId: string,
  bookId: string,
): Promise<void> {
  await trx
    .updateTable('book_members')
    .set({ last_used_at: new Date().toISOString() })
    .where('book_id', '=', bookId)
    .where('user_id', '=', userId)
    .execute();
}

/**
 * A session just signed in starts in the book its account worked in last (switched to or
 * joined), while it is still a member of it; else in its own, as a session whose book is null
 * does. A staff member signing in again is back in the shop's book, not in an empty one.
 */
export async function startInLastUsedBook(
  trx: WriteTransaction,
  sessionToken: string,
): Promise<void> {
  await trx
    .updateTable('session')
    .set({
      current_book_id: sql<string | null>`(SELECT m.book_id FROM book_members m
        WHERE m.user_id = session."userId" AND m.last_used_at IS NOT NULL
        ORDER BY m.last_used_at DESC, m.book_id LIMIT 1)`,
    })
    .where('token', '=', sessionToken)
    .where('current_book_id', 'is', null)
    .execute();
}

/** The members of a book, or the one of them given (`userId`), as the API answers them. */
function membersQuery(source: ReadSource, bookId: string, userId?: string) {
  let query = handleOf(source)
    .selectFrom('book_members as m')
    .innerJoin('user as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email', 'm.role', 'm.joined_at'])
    .where('m.book_id', '=', bookId);
  if (userId !== undefined) query = query.where('m.user_id', '=', userId);
  return query;
}

function toMember(row: { id: string; email: string; role: string; joined_at: string }): Member {
  return {
    id: row.id,
    email: row.email,
    role: bookRoleSchema.parse(row.role),
    joinedAt: row.joined_at,
  };
}

export async function membersOf(source: ReadSource, bookId: string): Promise<Member[]> {
  const rows = await membersQuery(source, bookId)
    .orderBy('m.joined_at')
    .orderBy('u.email')
    .execute();
  return rows.map(toMember);
}

export async function memberOfBook(
  source: ReadSource,
  bookId: string,
  userId: string,
): Promise<Member | undefined> {
  if (!isLookupId(userId)) return undefined;
  const row = await membersQuery(source, bookId, userId).executeTakeFirst();
  return row && toMember(row);
}

export type RoleChange =
  | { kind: 'changed'; member: Member; handedOver: boolean }
  /** The member has that role already: nothing is written. */
  | { kind: 'unchanged'; member: Member }
  | { kind: 'not-found' }
  | { kind: 'owner-stays' }
  /** The caller handed the book over in a write that committed after their request began. */
  | { kind: 'not-owner' };

/**
 * Gives a member another role. Making another member the owner hands the book over: the
 * owner becomes a manager, in the same transaction (a book has exactly one owner).
 */
export async function changeRole(
  trx: WriteTransaction,
  bookId: string,
  ownerId: string,
  memberId: string,
  role: BookRole,
): Promise<RoleChange> {
  // Still the owner, as this write sees the book: two hand-overs sent at once would otherwise
  // both pass the session's check and leave two owners.
  if (!(await holdMembership(trx, bookId, ownerId, 'owner'))) return { kind: 'not-owner' };
  // The member's row is held too (in that order, as a removal holds them), so that the member
  // cannot leave or be removed between this read and the writes below: the owner would be
  // made a manager of a book with no owner.
  if (!(await holdMembership(trx, bookId, memberId))) return { kind: 'not-found' };
  const member = await memberOfBook(trx, bookId, memberId);
  if (!member) return { kind: 'not-found' };
  if (member.role === role) return { kind: 'unchanged', member };
  // The owner's own role changes only by handing the book to someone else.
  if (memberId === ownerId) return { kind: 'owner-stays' };
  const handedOver = role === 'owner';
  if (handedOver) {
    await trx
      .updateTable('book_members')
      .set({ role: 'manager' })
      .where('book_id', '=', bookId)
      .where('user_id', '=', ownerId)
      .execute();
  }
  await trx
    .updateTable('book_members')
    .set({ role })
    .where('book_id', '=', bookId)
    .where('user_id', '=', memberId)
    .execute();
  return { kind: 'changed', member: { ...member, role }, handedOver };
}

/**
 * Holds a membership's row for the rest of the write (a no-op update: PostgreSQL locks the
 * row, and a write that changed it meanwhile is waited for and then seen; SQLite runs one
 * write at a time). False when there is no such member, or, with `role`, not in that role.
 */
async function holdMembership(
  trx: WriteTransaction,
  bookId: string,
  userId: string,
  role?: BookRole,
): Promise<boolean> {
  // An id from the request's path that could name nothing is no member, and is not looked up.
  if (!isLookupId(userId)) return false;
  let update = trx
    .updateTable('book_members')
    .set((eb) => ({ role: eb.ref('role') }))
    .where('book_id', '=', bookId)
    .where('user_id', '=', userId);
  if (role) update = update.where('role', '=', role);
  const held = await update.executeTakeFirst();
  return held.numUpdatedRows > 0n;
}

export type Removal =
  | { kind: 'removed'; member: Member }
  | { kind: 'not-found' }
  | { kind: 'owner' }
  /** The remover handed the book over in a write that committed after their request began. */
  | { kind: 'not-owner' };

/**
 * Takes a member out of the book, by the owner (`removerId`) or by themselves leaving (null);
 * the owner cannot be taken out (they hand the book over first). The rows are held and read
 * as this write sees them, not as the request's session did: a hand-over committed meanwhile
 * (to the member, or away from the remover) is seen, and a book never loses its owner.
 */
export async function removeMember(
  trx: WriteTransaction,
  bookId: string,
  memberId: string,
  removerId: string | null,
): Promise<Removal> {
  if (removerId !== null && !(await holdMembership(trx, bookId, removerId, 'owner'))) {
    return { kind: 'not-owner' };
  }
  if (!(await holdMembership(trx, bookId, memberId))) return { kind: 'not-found' };
  const member = await memberOfBook(trx, bookId, memberId);
  if (!member) return { kind: 'not-found' };
  if (member.role === 'owner') return { kind: 'owner' };
  await trx
    .deleteFrom('book_members')
    .where('book_id', '=', bookId)
    .where('user_id', '=', memberId)
    .execute();
  return { kind: 'removed', member };
}

export const INVITE_TOKEN_BYTES = 32;

export function inviteDigest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** An invitation: its token is returned here once and kept only as a digest. */
export async function createInvite(
  trx: WriteTransaction,
  invite: { bookId: string; createdBy: string; role: BookRole; days: number; now?: Date },
): Promise<{ id: string; token: string; role: BookRole; expiresAt: string }> {
  const now = invite.now ?? new Date();
  const token = randomBytes(INVITE_TOKEN_BYTES).toString('base64url');
  const id = randomUUID();
  const expiresAt = new Date(now.getTime() + invite.days * 86_400_000).toISOString();
  await trx
    .insertInto('book_invites')
    .values({
      id,
      book_id: invite.bookId,
      token_digest: inviteDigest(token),
      role: invite.role,
      created_by: invite.createdBy,
      created_at: now.toISOString(),
      expires_at: expiresAt,
      used_at: null,
      used_by: null,
    })
    .execute();
  return { id, token, role: invite.role, expiresAt };
}

/** In the book (`joined`: by this invitation, rather than a member already), or no such invitation. */
export type Acceptance =
  | { kind: 'in-book'; book: { id: string; name: string; role: BookRole }; joined: boolean }
  | { kind: 'not-found' };

/**
 * Uses an invitation: its account joins the book with the invitation's role. A member already
 * keeps the role they have and does not use it up. An invitation is used once, and not after
 * it expires.
 */
export async function acceptInvite(
  trx: WriteTransaction,
  token: string,
  userId: string,
  /** The mark of this sign-up's hold on it (`holdInvite`), which only this sign-up can use. */
  heldAt?: string,
  now: Date = new Date(),
): Promise<Acceptance> {
  const at = now.toISOString();
  const digest = inviteDigest(token);
  // A member already (the owner trying the link they are about to send, say) goes to the book
  // and leaves the invitation open for the person it was made for.
  if (heldAt === undefined) {
    const open = await trx
      .selectFrom('book_invites')
      .select('book_id')
      .where('token_digest', '=', digest)
      .where('used_at', 'is', null)
      .where('expires_at', '>', at)
      .executeTakeFirst();
    const already = open && (await bookOfMember(trx, userId, open.book_id));
    if (already) return { kind: 'in-book', book: already, joined: false };
  }
  // One statement marks it used, so two accepting at once cannot both have it.
  const unused = trx
    .updateTable('book_invites')
    .set({ used_at: at, used_by: userId })
    .where('token_digest', '=', digest);
  const used = await (heldAt === undefined
    ? unused.where('used_at', 'is', null).where('expires_at', '>', at)
    : unused.where('used_at', '=', heldAt).where('used_by', 'is', null)
  )
    .returning(['book_id', 'role'])
    .executeTakeFirst();
  if (!used) return { kind: 'not-found' };
  // A member keeps the role they have. Two invitations to one book accepted at once: the
  // second insert waits for the first (PostgreSQL) and then adds nothing.
  const added = await trx
    .insertInto('book_members')
    .values({ book_id: used.book_id, user_id: userId, role: used.role, joined_at: at })
    .onConflict((conflict) => conflict.columns(['book_id', 'user_id']).doNothing())
    .executeTakeFirst();
  const book = await bookOfMember(trx, userId, used.book_id);
  if (!book) throw new Error('a member just added is not there');
  return { kind: 'in-book', book, joined: (added.numInsertedOrUpdatedRows ?? 0n) > 0n };
}

/**
 * Holds an open invitation for a sign-up while its account is made (by better-auth, outside
 * any transaction of ours): of two sign-ups with one invitation only one gets past this, so
 * no account is made for one that would not join. Answers the hold's mark for `acceptInvite`,
 * or null when the invitation is not open.
 */
export async function holdInvite(
  trx: WriteTransaction,
  token: string,
  now: Date = new Date(),
): Promise<string | null> {
  const at = now.toISOString();
  const held = await trx
    .updateTable('book_invites')
    .set({ used_at: at })
    .where('token_digest', '=', inviteDigest(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return held.numUpdatedRows > 0n ? at : null;
}

/** Lets go of a hold whose account was not made: the invitation is open again. */
export async function releaseInvite(
  trx: WriteTransaction,
  token: string,
  heldAt: string,
): Promise<void> {
  await trx
    .updateTable('book_invites')
    .set({ used_at: null })
    .where('token_digest', '=', inviteDigest(token))
    .where('used_at', '=', heldAt)
    .where('used_by', 'is', null)
    .execute();
}

/** Whether an invitation would let its bearer in now (sign-up checks before making the account). */
export async function inviteIsOpen(source: ReadSource, token: string): Promise<boolean> {
  const row = await handleOf(source)
    .selectFrom('book_invites')
    .select('id')
    .where('token_digest', '=', inviteDigest(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date().toISOString())
    .executeTakeFirst();
  return row !== undefined;
}
