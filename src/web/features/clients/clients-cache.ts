import type { QueryClient } from '@tanstack/react-query';
import type { Client, ClientList } from '../../../shared/client-schema.ts';
import type { LiveEvent } from '../../../shared/live-events.ts';
import { formatAmount, paiseFromAmount } from '../../../shared/money.ts';
import { foldForSearch, phoneSearchDigits, searchTextOf } from '../../../shared/search-text.ts';
import { type ClientListParams, clientKeys, refreshAfterChange } from '../../lib/query-keys.ts';

export type ClientEvent = Extract<LiveEvent, { type: `client.${string}` }>;

function addToTotal(totalOwed: string, deltaPaise: bigint): string {
  return formatAmount(paiseFromAmount(totalOwed) + deltaPaise);
}

/** Whether a client belongs in a list of these parameters: the server's rules, applied here. */
export function belongsIn(client: Client, params: ClientListParams): boolean {
  const paise = paiseFromAmount(client.balance);
  if (params.balance === 'owing' && paise <= 0n) return false;
  if (params.balance === 'credit' && paise >= 0n) return false;
  if (params.balance === 'settled' && paise !== 0n) return false;
  // How long past due, and whether a promise is due today, are the server's to say (its day).
  if (params.overdue && paiseFromAmount(client.overdue) <= 0n) return false;
  if (params.promise && !client.promise) return false;
  if (params.promise === 'broken' && client.promise?.status !== 'broken') return false;
  if (params.q) {
    const text = searchTextOf(client);
    const digits = phoneSearchDigits(params.q);
    return text.includes(foldForSearch(params.q)) || (digits !== null && text.includes(digits));
  }
  return true;
}

/**
 * Shows a change at once in a list of given parameters: a client that now matches counts,
 * one that stops matching leaves the page, counts and totals follow. Rows keep their places;
 * where a new client lands is the server's order, which the refetch that follows places.
 */
function patchList(list: ClientList, params: ClientListParams, event: ClientEvent): ClientList {
  switch (event.type) {
    case 'client.created': {
      // A repeat, or an event for a client the list already shows, changes nothing.
      if (list.items.some((c) => c.id === event.client.id)) return list;
      if (!belongsIn(event.client, params)) return list;
      return {
        ...list,
        total: list.total + 1,
        totalOwed: addToTotal(list.totalOwed, paiseFromAmount(event.client.balance)),
      };
    }
    case 'client.updated': {
      const previous = list.items.find((c) => c.id === event.client.id);
      // An event older than what is shown (it crossed a reload) is ignored.
      if (!previous || previous.version >= event.client.version) return list;
      if (!belongsIn(event.client, params)) {
        return {
          items: list.items.filter((c) => c.id !== event.client.id),
          total: list.total - 1,
          totalOwed: addToTotal(list.totalOwed, -paiseFromAmount(previous.balance)),
        };
      }
      const delta = paiseFromAmount(event.client.balance) - paiseFromAmount(previous.balance);
      return {
        ...list,
        items: list.items.map((c) => (c.id === event.client.id ? event.client : c)),
        totalOwed: addToTotal(list.totalOwed, delta),
      };
    }
    case 'client.deleted': {
      const removed = list.items.find((c) => c.id === event.id);
      if (!removed) return list;
      return {
        items: list.items.filter((c) => c.id !== event.id),
        total: list.total - 1,
        totalOwed: addToTotal(list.totalOwed, -paiseFromAmount(removed.balance)),
      };
    }
  }
}

/**
 * Shows a change from the live channel at once, then has the server confirm the lists and
 * the ledger views (order, pages, totals and history are the server's to decide).
 */
export function applyClientEvent(queryClient: QueryClient, event: ClientEvent): void {
  if (event.type === 'client.deleted') {
    queryClient.setQueryData<Client | null>(clientKeys.detail(event.id), (current) =>
      current === undefined ? undefined : null,
    );
  } else {
    queryClient.setQueryData<Client | null>(clientKeys.detail(event.client.id), (current) =>
      current && current.version > event.client.version ? current : event.client,
    );
  }
  for (const [key, list] of queryClient.getQueriesData<ClientList>({
    queryKey: clientKeys.lists,
  })) {
    if (!list) continue;
    const params = (key[2] ?? {}) as ClientListParams;
    queryClient.setQueryData<ClientList>(key, patchList(list, params, event));
  }
  refreshAfterChange(queryClient, event.type === 'client.deleted' ? event.id : undefined);
}
