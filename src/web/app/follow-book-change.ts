import type { QueryClient } from '@tanstack/react-query';
import type { Flash } from '../components/flash-messages.tsx';
import { ROLE_NAMES } from '../features/books/role-names.ts';
import { loadCatalogues } from '../i18n/language.ts';
import { translate } from '../i18n/translate.tsx';
import { type BookList, bookKeys, booksQuery, enterBook } from '../lib/books.ts';
import { FAILURE_SECONDS } from '../lib/shell-messages.ts';

/** Long enough to read, and to see what went with the old role. */
const ROLE_CHANGE_SECONDS = 10;

/**
 * The socket's book is no longer this tab's: the books are read again. Still in the same book
 * (another role): everything shown is read again, the actions offered follow the role. In
 * another (switched in another tab, or this member was removed and the server fell back to
 * their own book): nothing of the last book stays, and the tab says why.
 */
export async function followBookChange(
  queryClient: QueryClient,
  why: 'access' | 'switched',
  flash: Flash,
  leavePage: () => void,
  /** Reads everything shown again (live-sync.tsx's), should the books not be read. */
  reloadEverything: () => void,
): Promise<void> {
  const before = queryClient.getQueryData<BookList>(bookKeys.list)?.items.find((b) => b.current);
  let books: BookList;
  try {
    books = await queryClient.fetchQuery({ ...booksQuery, staleTime: 0 });
  } catch {
    reloadEverything();
    return;
  }
  const after = books.items.find((book) => book.current);
  if (before && after && before.id === after.id) {
    void queryClient.invalidateQueries();
    if (before.role !== after.role) {
      // Said, not only done: a form being filled in may just have gone with the old role.
      await loadCatalogues('books');
      flash.success(
        translate('books.flash.roleChanged', {
          name: after.name,
          role: translate(ROLE_NAMES[after.role]),
        }),
        ROLE_CHANGE_SECONDS,
      );
    }
    return;
  }
  await loadCatalogues('books');
  await enterBook(queryClient, leavePage);
  if (before && !books.items.some((book) => book.id === before.id)) {
    flash.failure(translate('books.flash.removed', { name: before.name }), FAILURE_SECONDS);
  } else if (why === 'switched' && after) {
    flash.success(translate('books.flash.switchedElsewhere', { name: after.name }), 5);
  }
}
