import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type OperatorRole,
  operatorListSchema,
  operatorSchema,
} from '../../../shared/operator-schema.ts';
import { apiPaths } from '../../../shared/paths.ts';
import { api } from '../../lib/api-client.ts';

const operatorsQueryKey = ['operators'] as const;

export function useOperators(enabled: boolean) {
  return useQuery({
    queryKey: operatorsQueryKey,
    queryFn: () => api.get(apiPaths.operators, operatorListSchema),
    enabled,
  });
}

export function useChangeRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: OperatorRole }) =>
      api.put(apiPaths.operatorRole(id), operatorSchema, { role }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: operatorsQueryKey }),
  });
}
