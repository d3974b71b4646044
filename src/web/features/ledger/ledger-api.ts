import {
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { ageingSchema } from '../../../shared/dues-schema.ts';
import {
  entriesPageSchema,
  entryRecordedSchema,
  type NewEntry,
  statementSchema,
  totalsHistorySchema,
} from '../../../shared/ledger-schema.ts';
import { apiPaths } from '../../../shared/paths.ts';
import { api } from '../../lib/api-client.ts';
import { collectionSettingsQuery } from '../../lib/collection-settings.ts';
import { clientKeys, ledgerKeys, refreshAfterChange } from '../../lib/query-keys.ts';

const HISTORY_PAGE = 20;

/** A client's entries, newest first, a page at a time ("Show older entries" loads the next). */
export function useEntries(clientId: string) {
  return useInfiniteQuery({
    queryKey: ledgerKeys.entries(clientId),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const search = new URLSearchParams({ limit: String(HISTORY_PAGE) });
      if (pageParam) search.set('cursor', pageParam);
      return api.get(`${apiPaths.entries(clientId)}?${search}`, entriesPageSchema);
    },
    getNextPageParam: (page) => page.nextCursor,
  });
}

export function useStatement(clientId: string, from: string, to: string) {
  return useQuery({
    queryKey: ledgerKeys.statement(clientId, from, to),
    queryFn: () =>
      api.get(
        `${apiPaths.statement(clientId)}?${new URLSearchParams({ from, to })}`,
        statementSchema,
      ),
    placeholderData: keepPreviousData,
  });
}

// Defined where the collection round reads it too.
export { totalsQuery, usePanelToday } from '../../lib/panel-today.ts';

export function totalsHistoryQuery(from: string, to: string) {
  return queryOptions({
    queryKey: ledgerKeys.history(from, to),
    queryFn: () =>
      api.get(
        `${apiPaths.totalsHistory}?${new URLSearchParams({ from, to })}`,
        totalsHistorySchema,
      ),
    placeholderData: keepPreviousData,
  });
}

/** Records a payment or a charge; the client's balance, the lists and the ledger follow. */
export function useRecordEntry(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (entry: NewEntry) =>
      api.post(apiPaths.entries(clientId), entryRecordedSchema, entry),
    onSuccess: ({ client }) => {
      queryClient.setQueryData(clientKeys.detail(clientId), client);
      refreshAfterChange(queryClient);
    },
  });
}

/** The book's payment terms (days until a charge is due), from its collection settings. */
export function usePaymentTerms() {
  return useQuery({
    ...collectionSettingsQuery,
    select: (settings) => settings.paymentTermsDays,
  });
}

/** What is owed, by how long past due (the dashboard's panel and its printable page). */
export const ageingQuery = queryOptions({
  queryKey: ledgerKeys.ageing,
  queryFn: () => api.get(apiPaths.ageing, ageingSchema),
});
