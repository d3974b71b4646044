import {
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import * as z from 'zod/mini';
import {
  type OperatorSummary,
  type SessionAnswer,
  sessionAnswerSchema,
} from '../../shared/operator-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import { ApiError, api } from './api-client.ts';

/**
 * The signed-in operator: id, e-mail and role, and `twoFactorSetupRequired` while the
 * administrator requires two-factor sign-in and theirs is off (only its setup is open to them).
 */
export type SessionUser = OperatorSummary & Pick<SessionAnswer, 'twoFactorSetupRequired'>;

/** The session answer as the app keeps it: the operator, with the flag beside them. */
export function sessionUserOf(answer: SessionAnswer): SessionUser {
  return { ...answer.user, twoFactorSetupRequired: answer.twoFactorSetupRequired };
}

export const sessionQueryKey = ['session'] as const;

/** Who is signed in (null: nobody); shared by the hook and the start-up prefetch. */
export const sessionQuery = queryOptions({
  queryKey: sessionQueryKey,
  queryFn: async () => {
    const answer = await api.get(apiPaths.session, z.nullable(sessionAnswerSchema));
    return answer && sessionUserOf(answer);
  },
  staleTime: 60_000,
});

export function useSession() {
  return useQuery(sessionQuery);
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post(apiPaths.signOut, z.object({ success: z.boolean() }), {}),
    // The guards leave the signed-in pages before the session ends, so that nothing they
    // show (a panel still loading its data) asks the server once it would be refused; the
    // layout then forgets their data (forgetSignedInData). Should the sign-out fail, the
    // session is still good and comes back.
    onMutate: async () => {
      await queryClient.cancelQueries({ queryKey: sessionQueryKey });
      const previous = queryClient.getQueryData<SessionUser | null>(sessionQueryKey);
      queryClient.setQueryData(sessionQueryKey, null);
      return { previous };
    },
    onError: (_error, _input, context) => {
      if (context?.previous) queryClient.setQueryData(sessionQueryKey, context.previous);
    },
    onSuccess: () => queryClient.setQueryData(sessionQueryKey, null),
  });
}

/** Another operator's data must never linger: everything but the panel's settings goes. */
export function forgetSignedInData(queryClient: ReturnType<typeof useQueryClient>): void {
  queryClient.removeQueries({
    predicate: (q) => q.queryKey[0] !== 'settings' && q.queryKey[0] !== sessionQueryKey[0],
  });
}

/**
 * A 403 means what this operator may do has changed since the session was read (their role,
 * or the administrator now requires two-factor sign-in): the session, read again, says what.
 */
export function rereadSessionOnRefusal(queryClient: QueryClient, error: Error): void {
  if (error instanceof ApiError && error.status === 403) {
    void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
  }
}
