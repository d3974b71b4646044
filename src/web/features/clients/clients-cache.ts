import type { QueryClient } from '@tanstack/react-query';
import type { Client, ClientList } from '../../../shared/client-schema.ts';
import type { LiveEvent } from '../../../shared/live-events.ts';
import { amountTextToBigPaise, formatAmount } from '../../../shared/money.ts';
import { type ClientListParams, clientKeys } from './clients-api.ts';

type ClientEvent = Extract<LiveEvent, { type: `client.${string}` }>;

function addToTotal(totalOwed: string, deltaPaise: bigint): string {
  return formatAmount(amountTextToBigPaise(totalOwed) + deltaPaise);
}

function patchList(list: ClientList, params: ClientListParams, event: ClientEvent): ClientList {
  const unfiltered = !params.q;
  switch (event.type) {
    case 'client.created':
      // Where it lands depends on the server's order; the refetch below places it.
      return unfiltered
        ? {
            ...list,
            total: list.total + 1,
            totalOwed: addToTotal(list.totalOwed, amountTextToBigPaise(event.client.balance)),
          }
        : list;
    case 'client.updated': {
      const previous = list.items.find((c) => c.id === event.client.id);
      if (!previous) return list;
      const delta =
        amountTextToBigPaise(event.client.balance) - amountTextToBigPaise(previous.balance);
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
        totalOwed: addToTotal(list.totalOwed, -amountTextToBigPaise(removed.balance)),
      };
    }
  }
}

/**
 * Shows a change from the live channel at once, then has the server confirm the
 * lists (order, pages and totals are the server's to decide).
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
  void queryClient.invalidateQueries({ queryKey: clientKeys.lists });
}
