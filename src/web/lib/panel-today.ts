import { useQuery } from '@tanstack/react-query';
import { totalsSchema } from '../../shared/ledger-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import { api } from './api-client.ts';
import { todayHere } from './dates.ts';
import { ledgerKeys } from './query-keys.ts';

/*
 * The totals carry the panel's date today. The ledger (entry dates, the statement), the
 * collection round (a promise's date), and the list and the client's page (days overdue) all
 * need that day, so it is no feature's.
 */
export const totalsQuery = {
  queryKey: ledgerKeys.totals,
  queryFn: () => api.get(apiPaths.totals, totalsSchema),
};

/**
 * The panel's date today (its TIME_ZONE), on which the server books entries and counts what
 * is overdue; the browser's own date, which may be another day, only until the server has
 * answered.
 */
export function usePanelToday(): string {
  return useQuery(totalsQuery).data?.today ?? todayHere();
}
