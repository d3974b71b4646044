import type { QueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '../../shared/paths.ts';
import { useFlash } from '../components/flash-messages.tsx';
import { applyClientEvent } from '../features/clients/clients-cache.ts';
import { changeLanguage } from '../i18n/language.ts';
import { takeOwnMove } from '../lib/books.ts';
import { connectLive } from '../lib/live-socket.ts';
import { collectKeys, refreshAfterChange } from '../lib/query-keys.ts';
import { session } from '../lib/session.ts';
import { settings } from '../lib/settings-service.ts';

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
 * Keeps this tab's cached data current with every change the operator makes elsewhere, and
 * says whether it can (false while the channel is broken and being opened again).
 */
export function useLiveSync(queryClient: QueryClient, operatorId: string): boolean {
  const [connected, setConnected] = useState(true);
  const flash = useFlash();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // Read when the book changes, not a reason to open another socket.
  const here = useRef({ pathname, flash, navigate });
  here.current = { pathname, flash, navigate };
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new operator gets a new channel.
  useEffect(() => {
    return connectLive({
      onConnectionChange: setConnected,
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
        // This tab's own switch: it goes to the new book and says so itself. Taken here, not
        // once the code below has loaded, which may be after the switch's grace has passed.
        if (why === 'switched' && takeOwnMove()) return;
        // Rare: its code comes when it happens, not with every signed-in page.
        import('./follow-book-change.ts')
          .then((m) =>
            m.followBookChange(
              queryClient,
              why,
              here.current.flash,
              () => {
                if (showsBookThings(here.current.pathname)) here.current.navigate(paths.dashboard);
              },
              () => reloadEverything(queryClient),
            ),
          )
          .catch(() => reloadEverything(queryClient));
      },
    });
  }, [operatorId, queryClient]);
  return connected;
}
