import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  accountSessionListSchema,
  accountSessionsEndedSchema,
  type EmailChangeInput,
  emailChangedSchema,
  type PasswordChangeInput,
  passwordChangedSchema,
  type SessionsEndInput,
  signedOutEverywhereSchema,
} from '../../../shared/account-schema.ts';
import { apiPaths } from '../../../shared/paths.ts';
import { api } from '../../lib/api-client.ts';
import { session } from '../../lib/session.ts';
import { accountSessionsQueryKey, operatorsQueryKey } from './settings-query-keys.ts';

/** A new password; the answer says how many other sessions ended (the list shows it). */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PasswordChangeInput) =>
      api.post(apiPaths.accountPassword, passwordChangedSchema, input),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: accountSessionsQueryKey });
    },
  });
}

/** A new e-mail address: the navbar shows it at once (and the operators list, reloaded). */
export function useChangeEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: EmailChangeInput) =>
      api.post(apiPaths.accountEmail, emailChangedSchema, input),
    onSuccess: ({ user }) => {
      session.set(user);
      void queryClient.invalidateQueries({ queryKey: operatorsQueryKey });
    },
  });
}

/** Ends every session of the account, this one too: the guards then go to the sign-in page. */
export function useSignOutEverywhere() {
  return useMutation({
    mutationFn: () => api.post(apiPaths.accountSignOutEverywhere, signedOutEverywhereSchema),
    onSuccess: () => session.set(null),
  });
}

/** The operator's active sessions, this one marked. */
export function useAccountSessions() {
  return useQuery({
    queryKey: accountSessionsQueryKey,
    queryFn: () => api.get(apiPaths.accountSessions, accountSessionListSchema),
  });
}

/**
 * Ends some of the operator's sessions (with the current password). If this one was among
 * them, the guards go to the sign-in page; otherwise the list is read again.
 */
export function useEndAccountSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SessionsEndInput) =>
      api.post(apiPaths.accountSessionsEnd, accountSessionsEndedSchema, input),
    onSuccess: ({ signedOut }) => {
      if (signedOut) session.set(null);
      else void queryClient.invalidateQueries({ queryKey: accountSessionsQueryKey });
    },
  });
}
