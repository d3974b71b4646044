import { queryOptions, useQuery } from '@tanstack/react-query';
import { totalsSchema } from '../../shared/ledger-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import { api } from './api-client.ts';
import { todayHere } from './dates.ts';
import { ledgerKeys } from './query-keys.ts';

/*
 * The running totals carry the panel's date: the ledger shows them, and the list and the
 * client's page count overdue days from that date, so the query is neither feature's.
 */
export const totalsQuery = queryOptions({
  queryKey: ledgerKeys.totals,
  queryFn: () => api.get(apiPaths.totals, totalsSchema),
});

/**
 * The panel's date today (its TIME_ZONE), on which the server books entries and counts what
 * is overdue; the browser's own date, which may be another day, only until the server has
 * answered.
 */
export function usePanelToday(): string {
  return useQuery(totalsQuery).data?.today ?? todayHere();
}
