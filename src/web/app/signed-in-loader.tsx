import type { QueryClient } from '@tanstack/react-query';
import { type ComponentType, lazy } from 'react';
import { loadCatalogues } from '../i18n/language.ts';

/** The signed-in part of the app (signed-in.tsx) once loaded, with the app's query cache. */
export interface SignedInPart {
  client: QueryClient;
  module: typeof import('./signed-in.tsx');
}

/** Loads the signed-in part the first time a signed-in page or the live channel needs it. */
export interface SignedInLoader {
  /** Undefined until it is loaded. */
  current: SignedInPart | undefined;
  load(): Promise<SignedInPart>;
  /** The live channel of the signed-in operator, with the part it needs. */
  LiveChannel: ComponentType<{ operatorId: string }>;
  /** The navbar's current book and its menu, with its words, beside the signed-in part. */
  BookMenu: ComponentType;
}

export function signedInLoader(): SignedInLoader {
  let loading: Promise<SignedInPart> | undefined;
  const loader: SignedInLoader = {
    current: undefined,
    load: () =>
      (loading ??= Promise.all([import('./signed-in.tsx'), loadCatalogues('app')]).then(
        ([module]) => {
          loader.current = { client: module.createQueryClient(), module };
          void module.prefetchBooks(loader.current.client);
          return loader.current;
        },
      )),
    LiveChannel: lazy(() =>
      loader.load().then(({ client, module }) => ({
        default: ({ operatorId }: { operatorId: string }) => (
          <module.LiveSync client={client} operatorId={operatorId} />
        ),
      })),
    ),
    BookMenu: lazy(() =>
      Promise.all([
        loader.load(),
        import('../features/books/book-menu.tsx').then((m) => m.BookMenu),
        loadCatalogues('books'),
      ]).then(([{ client, module }, BookMenu]) => ({
        default: () => (
          <module.QueryShell client={client}>
            <BookMenu />
          </module.QueryShell>
        ),
      })),
    ),
  };
  return loader;
}
