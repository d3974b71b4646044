import { useQuery } from '@tanstack/react-query';
import { totalsSchema } from '../../shared/ledger-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import { api } from './api-client.ts';
import { todayHere } from './dates.ts';
import { ledgerKeys } from './query-keys.ts';

/*
 * The totals carry the panel's date today. The ledger (entry dates, the statement) and the
 * collection round (a promise's date) both need that day, so it is neither feature's.
 */
export const totalsQuery = {
  queryKey: ledgerKeys.totals,
  queryFn: () => api.get(apiPaths.totals, totalsSchema),
};

/**
 * The panel's date today (its TIME_ZONE), on which the server books entries; the browser's
 * own date, which may be another day, only until the server has answered.
 */
export function usePanelToday(): string {
  return useQuery(totalsQuery).data?.today ?? todayHere();
}
