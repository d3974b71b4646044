import {
  MutationCache,
  notifyManager,
  QueryCache,
  QueryClient,
  QueryClientProvider,
} from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { clientListQuery } from '../features/clients/clients-api.ts';
import { listParams, viewFromParams } from '../features/clients/list-view.ts';
import { useT } from '../i18n/translate.tsx';
import { worthRetrying } from '../lib/api-client.ts';
import { booksQuery } from '../lib/books.ts';
import { rereadSessionOnRefusal, session } from '../lib/session.ts';
import { useLiveSync } from './live-sync.tsx';

// The signed-in part of the app, loaded once a signed-in page or the live channel needs it:
// TanStack Query and what rides on it stay out of the pages before sign-in (decision 0013).

// A query's or a mutation's new state reaches the page before the browser's next event, not
// after a timer (TanStack's default): a button disabled while its mutation runs is disabled
// for the second click of a double click, which would otherwise confirm a payment twice or
// send a reminder twice.
notifyManager.setScheduler(queueMicrotask);

export function createQueryClient(): QueryClient {
  const onError = rereadSessionOnRefusal;
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: { queries: { retry: worthRetrying, refetchOnWindowFocus: false } },
  });
}

/** Around each signed-in page: the app's query cache. */
export function QueryShell({ client, children }: { client: QueryClient; children: ReactNode }) {
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

/** How long a break must last to be shown: a quick reconnect (a book switch) shows nothing. */
const BREAK_SHOWN_AFTER_MS = 3_000;

/**
 * Keeps this tab's cached data current with what the operator does elsewhere, and says so
 * when it cannot: while the channel is broken, what is shown may be out of date.
 */
export function LiveSync({ client, operatorId }: { client: QueryClient; operatorId: string }) {
  const t = useT();
  const connected = useLiveSync(client, operatorId);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (connected) {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), BREAK_SHOWN_AFTER_MS);
    return () => clearTimeout(timer);
  }, [connected]);
  if (!shown) return null;
  return (
    <div className="live-break alert alert-warning shadow mb-0" role="status">
      {t('shell.live.broken')}
    </div>
  );
}

/** A list page's clients, asked for beside its code (routes.tsx, listPage); `search`: its URL's. */
export async function prefetchList(client: QueryClient, search: string): Promise<void> {
  const user = await session.ensure().catch(() => null);
  // Refused until the operator turns on the two-factor sign-in the administrator requires.
  if (user && !user.twoFactorSetupRequired) {
    const view = viewFromParams(new URLSearchParams(search));
    void client.prefetchQuery(clientListQuery(listParams(view)));
  }
}

/**
 * The account's books, asked for as soon as the signed-in part is in: every page's actions
 * depend on the role in the current book, and none shows before it is known.
 */
export async function prefetchBooks(client: QueryClient): Promise<void> {
  const user = await session.ensure().catch(() => null);
  if (user && !user.twoFactorSetupRequired) void client.prefetchQuery(booksQuery);
}
