import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type NewPromise, promiseSchema, promisesSchema } from '../../../shared/dues-schema.ts';
import { apiPaths } from '../../../shared/paths.ts';
import { api } from '../../lib/api-client.ts';
import { clientKeys, collectKeys, refreshAfterChange } from '../../lib/query-keys.ts';

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
