import {
  keepPreviousData,
  type QueryClient,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import * as z from 'zod/mini';
import type { ClientFields } from '../../../shared/client-fields-schema.ts';
import { type Client, clientListSchema, clientSchema } from '../../../shared/client-schema.ts';
import { apiPaths } from '../../../shared/paths.ts';
import { api } from '../../lib/api-client.ts';
import { type ClientListParams, clientKeys, refreshAfterChange } from '../../lib/query-keys.ts';

function withQuery(path: string, params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  return `${path}?${search}`;
}

function listUrl(params: ClientListParams): string {
  return withQuery(apiPaths.clients, params);
}

/** The CSV of everything a view shows (the list's query without its page), or of its picked clients. */
export function exportUrl(
  { limit: _limit, offset: _offset, ...view }: ClientListParams,
  ids?: readonly string[],
): string {
  // The export's `ids` rule (shared/client-csv.ts) is not imported here: its schema would
  // join the first page's bundle. A page holds at most 100 rows, well within its 500.
  return withQuery(apiPaths.clientsExport, ids ? { ...view, ids: ids.join(',') } : view);
}

// A plain object, not TanStack's queryOptions(): its few bytes would join the first load.
export function clientListQuery(params: ClientListParams) {
  return {
    queryKey: clientKeys.list(params),
    queryFn: () => api.get(listUrl(params), clientListSchema),
  };
}

export function useClientList(params: ClientListParams, options: { enabled?: boolean } = {}) {
  return useQuery({
    ...clientListQuery(params),
    // The rows stay on screen while the next page or search loads: nothing jumps.
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

/** A client, or null once the live channel has said it was deleted elsewhere. */
export function useClient(id: string) {
  return useQuery<Client | null>({
    queryKey: clientKeys.detail(id),
    queryFn: () => api.get(apiPaths.client(id), clientSchema),
  });
}

export function useCreateClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: ClientFields) => api.post(apiPaths.clients, clientSchema, fields),
    onSuccess: (client) => {
      queryClient.setQueryData(clientKeys.detail(client.id), client);
      refreshAfterChange(queryClient);
    },
  });
}

export type ClientChanges = Partial<ClientFields> & { version: number };

export function useUpdateClient(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: ClientChanges) => api.patch(apiPaths.client(id), clientSchema, changes),
    onSuccess: (client) => {
      queryClient.setQueryData(clientKeys.detail(id), client);
      refreshAfterChange(queryClient);
    },
  });
}

/** Brings back a client deleted in the last 10 minutes, with its history. */
export async function restoreDeletedClient(queryClient: QueryClient, id: string): Promise<Client> {
  const client = await api.post(apiPaths.restore(id), clientSchema, {});
  queryClient.setQueryData(clientKeys.detail(id), client);
  refreshAfterChange(queryClient);
  return client;
}

export function useDeleteClient(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete(apiPaths.client(id), z.null()),
    onSuccess: () => {
      // Marked deleted rather than removed: removing it under the still-open details page
      // would make that page fetch it again (a needless 404).
      queryClient.setQueryData(clientKeys.detail(id), null);
      refreshAfterChange(queryClient, id);
    },
  });
}
