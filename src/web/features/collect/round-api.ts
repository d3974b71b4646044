import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { type CollectRound, collectSchema } from '../../../shared/dues-schema.ts';
import { apiPaths } from '../../../shared/paths.ts';
import { api } from '../../lib/api-client.ts';
import { collectKeys } from '../../lib/query-keys.ts';

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
