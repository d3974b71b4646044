import { type QueryClient, useMutation, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { BOOK_ROLES, type BookAction, roleMay } from '../../shared/book-roles.ts';
import type { Book } from '../../shared/book-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import { api, workInBook } from './api-client.ts';

/*
 * Shared books (next-api.md, "Shared books: staff and roles"): which books this account is in,
 * the session's current one and this member's role in it. Everything the app reads is the
 * current book's, so a change of book empties the whole query cache (followBook).
 */

/** Under one key: the live `members.updated` (live-sync.tsx) reloads both. */
export const bookKeys = {
  all: ['books'] as const,
  list: ['books', 'list'] as const,
  members: ['books', 'members'] as const,
};

/**
 * A book as the server sends it: the shared schema's shape without its module, whose input
 * rules (a new book's name) would otherwise come with every signed-in page.
 */
const bookSchema: z.ZodMiniType<Book> = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(BOOK_ROLES),
  current: z.boolean(),
});
const bookListSchema = z.object({ items: z.array(bookSchema) });
export type BookList = z.infer<typeof bookListSchema>;

export const booksQuery = {
  queryKey: bookKeys.list,
  queryFn: async () => {
    const books = await api.get(apiPaths.books, bookListSchema);
    // Read without the page's book (it asks which one is the session's): what it answers is it.
    workInBook(books.items.find((book) => book.current)?.id);
    return books;
  },
  // Changes arrive live (members.updated, the socket closed on a change of book or role).
  staleTime: Number.POSITIVE_INFINITY,
};

export function useBooks() {
  return useQuery(booksQuery);
}

/** The session's current book ({ id, name, role }); undefined until the books are read. */
export function useCurrentBook(): Book | undefined {
  return useBooks().data?.items.find((book) => book.current);
}

/**
 * Whether this member's role in the current book allows `action` (shared/book-roles.ts). False
 * until the books are read: an action the role forbids never shows, not even for a moment.
 */
export function useMay(action: BookAction): boolean {
  return roleMay(useCurrentBook()?.role, action);
}

/**
 * The session is in another book now: nothing read from the last one may stay on screen. Every
 * query starts afresh (those shown are read again at once, from the new book).
 */
export function followBook(queryClient: QueryClient): Promise<void> {
  return queryClient.resetQueries();
}

/**
 * How long after this tab's own switch (or join) the socket's "switched" close still counts as
 * its doing: the server closes the socket as the switch commits, so the close can come just
 * before or just after the switch's answer.
 */
const OWN_SWITCH_GRACE_MS = 3_000;

/** This tab's own moves whose socket close has not come yet (see asOwnSwitch). */
const ownMoves = new Set<object>();

/**
 * Runs this tab's own move to another book (a switch from the menu, an invitation accepted):
 * the tab says where it went itself, so the socket's close that follows is not reported as a
 * move made "in another tab".
 */
export async function asOwnSwitch<T>(move: () => Promise<T>): Promise<T> {
  const mark = {};
  ownMoves.add(mark);
  try {
    const moved = await move();
    setTimeout(() => ownMoves.delete(mark), OWN_SWITCH_GRACE_MS);
    return moved;
  } catch (error) {
    // No move, no close of its own: a switch made in another tab meanwhile is still said.
    ownMoves.delete(mark);
    throw error;
  }
}

/**
 * Whether a "switched" close is this tab's own move's doing (see asOwnSwitch): each move
 * accounts for one close.
 */
export function takeOwnMove(): boolean {
  const [mark] = ownMoves;
  if (mark === undefined) return false;
  ownMoves.delete(mark);
  return true;
}

/**
 * Leaves the page shown (`leave`: to the dashboard), then follows the new book: a page of the
 * last book's things (a client's) must not read them again from the new one, which has none.
 */
export async function enterBook(queryClient: QueryClient, leave: () => void): Promise<void> {
  leave();
  await new Promise((resolve) => setTimeout(resolve, 0));
  await followBook(queryClient);
}

/** Makes another of this account's books the session's (every tab of the session follows). */
export function useSwitchBook() {
  return useMutation({
    mutationFn: async (id: string) => {
      const book = await api.put(apiPaths.currentBook, bookSchema, { id });
      workInBook(book.id);
      return book;
    },
  });
}
