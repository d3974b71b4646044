import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '../../../shared/paths.ts';
import {
  backupCodesSchema,
  type TwoFactorConfirmInput,
  type TwoFactorPasswordInput,
  type TwoFactorStatus,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
} from '../../../shared/two-factor-schema.ts';
import { api } from '../../lib/api-client.ts';
import { operatorsQueryKey, twoFactorQueryKey } from './settings-query-keys.ts';

/** Whether the operator's own two-factor sign-in is on, and how many backup codes are left. */
export function useTwoFactorStatus() {
  return useQuery({
    queryKey: twoFactorQueryKey,
    queryFn: () => api.get(apiPaths.accountTwoFactor, twoFactorStatusSchema),
  });
}

/** A new status: shown at once, and in the administrator's list of operators too. */
function useStatusMutation<Input>(path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Input) => api.post(path, twoFactorStatusSchema, input),
    onSuccess: (status) => {
      queryClient.setQueryData<TwoFactorStatus>(twoFactorQueryKey, status);
      void queryClient.invalidateQueries({ queryKey: operatorsQueryKey });
    },
  });
}

/**
 * The secret for the authenticator app and the backup codes. Nothing changes yet: two-factor
 * sign-in is on only once a code from the app confirms that the app has the secret.
 */
export function useBeginTwoFactorSetup() {
  return useMutation({
    mutationFn: (input: TwoFactorPasswordInput) =>
      api.post(apiPaths.accountTwoFactorSetup, twoFactorSetupSchema, input),
  });
}

export function useConfirmTwoFactor() {
  return useStatusMutation<TwoFactorConfirmInput>(apiPaths.accountTwoFactorConfirm);
}

export function useDisableTwoFactor() {
  return useStatusMutation<TwoFactorPasswordInput>(apiPaths.accountTwoFactorDisable);
}

/** A new set of backup codes; the old ones stop working. */
export function useNewBackupCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TwoFactorPasswordInput) =>
      api.post(apiPaths.accountTwoFactorBackupCodes, backupCodesSchema, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorQueryKey }),
  });
}
