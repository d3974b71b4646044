import type { QueryClient } from '@tanstack/react-query';
import type { ClientListQuery } from '../../shared/client-schema.ts';

/*
 * The query cache's keys, and what a change of a client makes stale: the clients and the
 * ledger features both read and refresh them, so they are neither's.
 */

export type ClientListParams = Pick<ClientListQuery, 'limit' | 'offset'> &
  Partial<
    Pick<
      ClientListQuery,
      'q' | 'sort' | 'dir' | 'balance' | 'notRemindedFor' | 'overdue' | 'promise'
    >
  >;

export const clientKeys = {
  all: ['clients'] as const,
  lists: ['clients', 'list'] as const,
  list: (params: ClientListParams) => ['clients', 'list', params] as const,
  detail: (id: string) => ['clients', 'detail', id] as const,
};

/** Everything read from the ledger sits under one key: any change of a balance reloads it. */
export const ledgerKeys = {
  all: ['ledger'] as const,
  entries: (clientId: string) => ['ledger', 'entries', clientId] as const,
  statement: (clientId: string, from: string, to: string) =>
    ['ledger', 'statement', clientId, from, to] as const,
  totals: ['ledger', 'totals'] as const,
  history: (from: string, to: string) => ['ledger', 'history', from, to] as const,
  /** Under the ledger's key: a change of any balance reloads it with the totals. */
  ageing: ['ledger', 'ageing'] as const,
};

/**
 * After a change of a client: the lists and the ledger views are the server's to redo. A
 * deleted client's own history and statements are left to expire, never asked for again
 * (a 404; removing them now would make a still-mounted history fetch them afresh).
 */
export function refreshAfterChange(
  queryClient: QueryClient,
  deleted: string | readonly string[] = [],
): void {
  const deletedIds: readonly unknown[] = typeof deleted === 'string' ? [deleted] : deleted;
  const ofDeleted = (key: readonly unknown[]) => deletedIds.includes(key[2]);
  void queryClient.invalidateQueries({ queryKey: clientKeys.lists });
  void queryClient.invalidateQueries({
    queryKey: ledgerKeys.all,
    predicate: (query) => !ofDeleted(query.queryKey),
  });
}

/**
 * Getting paid (issue 20). A client's claims and reminders sit under the ledger's key: the
 * live `claim.created` patches the client and refreshes the ledger views, these with them.
 */
export const collectKeys = {
  settings: ['collection-settings'] as const,
  shareLinks: (clientId: string) => ['ledger', 'share-links', clientId] as const,
  claims: (clientId: string) => ['ledger', 'claims', clientId] as const,
  reminders: (clientId: string) => ['ledger', 'reminders', clientId] as const,
  /** A client's promises to pay: a payment may keep one, so they reload with the ledger. */
  promises: (clientId: string) => ['ledger', 'promises', clientId] as const,
  /**
   * The day's collection round: any change of a client (reminded, paid, promised, deleted,
   * imported) may move it, so it reloads with the ledger views; a skip, on `collect.updated`.
   */
  round: ['ledger', 'collect'] as const,
};
