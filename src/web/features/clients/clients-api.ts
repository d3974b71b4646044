import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Client,
  ClientFields,
  ClientList,
  ClientListQuery,
} from '../../../shared/client-schema.ts';
import { apiPaths } from '../../../shared/paths.ts';
import { api } from '../../lib/api-client.ts';

export type ClientListParams = Pick<ClientListQuery, 'limit' | 'offset'> &
  Partial<Pick<ClientListQuery, 'q' | 'sort' | 'dir'>>;

export const clientKeys = {
  all: ['clients'] as const,
  lists: ['clients', 'list'] as const,
  list: (params: ClientListParams) => ['clients', 'list', params] as const,
  detail: (id: string) => ['clients', 'detail', id] as const,
};

function listUrl(params: ClientListParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  return `${apiPaths.clients}?${search}`;
}

export function useClientList(params: ClientListParams) {
  return useQuery({
    queryKey: clientKeys.list(params),
    queryFn: () => api.get<ClientList>(listUrl(params)),
    placeholderData: keepPreviousData,
  });
}

/** A client, or null once the live channel has said it was deleted elsewhere. */
export function useClient(id: string) {
  return useQuery<Client | null>({
    queryKey: clientKeys.detail(id),
    queryFn: () => api.get<Client>(apiPaths.client(id)),
  });
}

export function useCreateClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: ClientFields) => api.post<Client>(apiPaths.clients, fields),
    onSuccess: (client) => {
      queryClient.setQueryData(clientKeys.detail(client.id), client);
      void queryClient.invalidateQueries({ queryKey: clientKeys.lists });
    },
  });
}

export type ClientChanges = Partial<ClientFields> & { version: number };

export function useUpdateClient(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: ClientChanges) => api.patch<Client>(apiPaths.client(id), changes),
    onSuccess: (client) => {
      queryClient.setQueryData(clientKeys.detail(id), client);
      void queryClient.invalidateQueries({ queryKey: clientKeys.lists });
    },
  });
}

export function useDeleteClient(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<void>(apiPaths.client(id)),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: clientKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: clientKeys.lists });
    },
  });
}
