import type { QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '../../shared/paths.ts';
import { type Flash, useFlash } from '../components/flash-messages.tsx';
import { applyClientEvent } from '../features/clients/clients-cache.ts';
import { changeLanguage, loadCatalogues } from '../i18n/language.ts';
import { translate } from '../i18n/translate.tsx';
import { type BookList, bookKeys, booksQuery, enterBook } from '../lib/books.ts';
import { connectLive } from '../lib/live-socket.ts';
import { collectKeys, refreshAfterChange } from '../lib/query-keys.ts';
import { session } from '../lib/session.ts';
import { settings } from '../lib/settings-service.ts';
import { FAILURE_SECONDS } from '../lib/shell-messages.ts';

/** Everything shown is read again: the cached pages' data, the session and the settings. */
function reloadEverything(queryClient: QueryClient): void {
  void queryClient.invalidateQueries();
  void session.reload();
  void settings.reload();
}

/** Pages that show one book's things: left for the dashboard when the tab changes book. */
function showsBookThings(pathname: string): boolean {
  return pathname.startsWith('/client/') || pathname === paths.activity;
}

/**
 * The socket's book is no longer this tab's: the books are read again. Still in the same book
 * (another role): everything shown is read again, the actions offered follow the role. In
 * another (switched in another tab, or this member was removed and the server fell back to
 * their own book): nothing of the last book stays, and the tab says why.
 */
async function followBookChange(
  queryClient: QueryClient,
  why: 'access' | 'switched',
  flash: Flash,
  leavePage: () => void,
): Promise<void> {
  const before = queryClient.getQueryData<BookList>(bookKeys.list)?.items.find((b) => b.current);
  let books: BookList;
  try {
    books = await queryClient.fetchQuery({ ...booksQuery, staleTime: 0 });
  } catch {
    reloadEverything(queryClient);
    return;
  }
  const after = books.items.find((book) => book.current);
  if (before && after && before.id === after.id) {
    void queryClient.invalidateQueries();
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

/** Keeps this tab's cached data current with every change the operator makes elsewhere. */
export function useLiveSync(queryClient: QueryClient, operatorId: string): void {
  const flash = useFlash();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // Read when the book changes, not a reason to open another socket.
  const here = useRef({ pathname, flash, navigate });
  here.current = { pathname, flash, navigate };
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new operator gets a new channel.
  useEffect(() => {
    return connectLive({
      onEvent(event) {
        if (event.type === 'settings.updated') {
          settings.set(event.settings);
        } else if (
          event.type === 'entry.created' ||
          event.type === 'claim.created' ||
          event.type === 'promise.created'
        ) {
          // The client's new balance (or promise) patches what is shown; the ledger views,
          // promises and the collection round with them, reload.
          applyClientEvent(queryClient, { type: 'client.updated', client: event.client });
        } else if (event.type === 'clients.imported') {
          // Many new clients at once: the lists, totals and chart reload.
          refreshAfterChange(queryClient);
        } else if (event.type === 'collect.updated') {
          // A client skipped for the day: only the round changed.
          void queryClient.invalidateQueries({ queryKey: collectKeys.round });
        } else if (event.type === 'resync') {
          reloadEverything(queryClient);
        } else if (event.type === 'operator.updated') {
          // This operator's role changed: the navbar and settings page follow.
          session.set(event.operator);
        } else if (event.type === 'preferences.updated') {
          // The operator chose another language on another tab or device: this one follows.
          void changeLanguage(event.language);
        } else if (event.type === 'members.updated') {
          // Someone joined, left or got another role: the book's member list and books change.
          void queryClient.invalidateQueries({ queryKey: ['books'] });
        } else if (event.type === 'collection-settings.updated') {
          // The preview and the next form shown use them; a form being edited keeps its text.
          queryClient.setQueryData(collectKeys.settings, event.settings);
        } else {
          applyClientEvent(queryClient, event);
        }
      },
      onResync() {
        reloadEverything(queryClient);
      },
      onSessionEnded() {
        void session.reload();
      },
      onBookChanged(why) {
        void followBookChange(queryClient, why, here.current.flash, () => {
          if (showsBookThings(here.current.pathname)) here.current.navigate(paths.dashboard);
        });
      },
    });
  }, [operatorId, queryClient]);
}
