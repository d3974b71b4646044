import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  bulkDeletedSchema,
  bulkRestoredSchema,
  type Client,
} from '../../../shared/client-schema.ts';
import { apiPaths } from '../../../shared/paths.ts';
import { api } from '../../lib/api-client.ts';
import { clientKeys, refreshAfterChange } from '../../lib/query-keys.ts';

/** Deletes picked clients in one request; the answer names those that were deleted. */
export function useDeleteClients() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: readonly string[]) =>
      api.post(apiPaths.bulkDelete, bulkDeletedSchema, { ids }),
    onSuccess: ({ deleted }) => {
      // Marked deleted rather than removed, as one client's delete does.
      for (const id of deleted) queryClient.setQueryData(clientKeys.detail(id), null);
      refreshAfterChange(queryClient, deleted);
    },
  });
}

/** Brings back clients deleted together, in one request; those too late are left out. */
export async function restoreDeletedClients(
  queryClient: QueryClient,
  ids: readonly string[],
): Promise<Client[]> {
  const { restored } = await api.post(apiPaths.bulkRestore, bulkRestoredSchema, { ids });
  for (const client of restored) queryClient.setQueryData(clientKeys.detail(client.id), client);
  refreshAfterChange(queryClient);
  return restored;
}
