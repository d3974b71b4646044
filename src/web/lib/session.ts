import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { type OperatorSummary, sessionAnswerSchema } from '../../shared/operator-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import { api } from './api-client.ts';

/** The signed-in operator: id, e-mail and role. */
export type SessionUser = OperatorSummary;

export const sessionQueryKey = ['session'] as const;

/** Who is signed in (null: nobody); shared by the hook and the start-up prefetch. */
export const sessionQuery = queryOptions({
  queryKey: sessionQueryKey,
  queryFn: async () => {
    const answer = await api.get(apiPaths.session, z.nullable(sessionAnswerSchema));
    return answer ? answer.user : null;
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
