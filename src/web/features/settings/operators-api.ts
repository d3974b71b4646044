import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  operatorDeactivatedSchema,
  operatorListItemSchema,
  operatorListSchema,
} from '../../../shared/operator-list-schema.ts';
import { type OperatorRole, operatorSchema } from '../../../shared/operator-schema.ts';
import { resetLinkSchema, sessionsEndedSchema } from '../../../shared/password-reset-schema.ts';
import { apiPaths } from '../../../shared/paths.ts';
import type { TwoFactorPasswordInput } from '../../../shared/two-factor-schema.ts';
import { api } from '../../lib/api-client.ts';
import { accountSessionsQueryKey, operatorsQueryKey } from './settings-query-keys.ts';

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

/** Ends an operator's sessions, or (without an id) every operator's but the caller's own. */
export function useEndSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (operatorId: string | null) =>
      api.post(
        operatorId === null ? apiPaths.operatorsSignOutAll : apiPaths.operatorSignOut(operatorId),
        sessionsEndedSchema,
      ),
    // Signing every operator out ends the administrator's other sessions too: their list changes.
    onSuccess: (_ended, operatorId) =>
      operatorId === null
        ? queryClient.invalidateQueries({ queryKey: accountSessionsQueryKey })
        : undefined,
  });
}

/** A one-time reset link for an operator: the answer is the only place it is ever readable. */
export function useIssueResetLink() {
  return useMutation({
    mutationFn: (operatorId: string) =>
      api.post(apiPaths.operatorResetLink(operatorId), resetLinkSchema),
  });
}

/** Deactivates an operator: every session of theirs ends, and they cannot sign in again. */
export function useDeactivateOperator() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (operatorId: string) =>
      api.post(apiPaths.operatorDeactivate(operatorId), operatorDeactivatedSchema),
    onSettled: () => queryClient.invalidateQueries({ queryKey: operatorsQueryKey }),
  });
}

/** Lets a deactivated operator sign in again, with their old password. */
export function useReactivateOperator() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (operatorId: string) =>
      api.post(apiPaths.operatorReactivate(operatorId), operatorListItemSchema),
    onSettled: () => queryClient.invalidateQueries({ queryKey: operatorsQueryKey }),
  });
}

/**
 * Turns off an operator's two-factor sign-in, for one who lost both the phone with the app and
 * their backup codes: they sign in with their password alone until they turn it on again. The
 * administrator's own current password goes with it.
 */
export function useDisableOperatorTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ operatorId, ...input }: { operatorId: string } & TwoFactorPasswordInput) =>
      api.post(apiPaths.operatorTwoFactorDisable(operatorId), operatorListItemSchema, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: operatorsQueryKey }),
  });
}
