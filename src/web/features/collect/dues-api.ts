import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import {
  type CollectRound,
  collectSchema,
  type NewPromise,
  promiseSchema,
  promisesSchema,
} from '../../../shared/dues-schema.ts';
import { apiPaths } from '../../../shared/paths.ts';
import { api } from '../../lib/api-client.ts';
import { clientKeys, collectKeys, refreshAfterChange } from '../../lib/query-keys.ts';

/* Promises to pay and the day's collection round (next-api.md, "Due dates, ageing and promises"). */

/** A client's promises to pay, newest first, and their record (kept of decided). */
export function usePromises(clientId: string) {
  return useQuery({
    queryKey: collectKeys.promises(clientId),
    queryFn: () => api.get(apiPaths.promises(clientId), promisesSchema),
  });
}

/**
 * Records a promise (it replaces an open one): the client's `promise`, the lists, its
 * promises and the day's round (a promised client leaves it) are read again.
 */
export function useCreatePromise(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (promise: NewPromise) =>
      api.post(apiPaths.promises(clientId), promiseSchema, promise),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: clientKeys.detail(clientId) });
      refreshAfterChange(queryClient);
    },
  });
}

/** Today's collection round (the panel's today): who to see, why, and how far along. */
export function useCollectRound() {
  return useQuery({
    queryKey: collectKeys.round,
    queryFn: () => api.get(apiPaths.collect, collectSchema),
  });
}

/** "Skip for today": the client leaves the round at once, then the server's round is read. */
export function useSkipClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (clientId: string) => api.post(apiPaths.collectSkip(clientId), z.null(), {}),
    onSuccess: (_answer, clientId) => {
      queryClient.setQueryData<CollectRound>(collectKeys.round, (round) =>
        round?.items.some((item) => item.client.id === clientId)
          ? {
              ...round,
              items: round.items.filter((item) => item.client.id !== clientId),
              remaining: round.remaining - 1,
              done: round.done + 1,
            }
          : round,
      );
      void queryClient.invalidateQueries({ queryKey: collectKeys.round });
    },
  });
}
