import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import type { SignInInput, SignUpInput } from '../../shared/auth-schema.ts';
import {
  type OperatorSummary,
  type SessionAnswer,
  sessionAnswerSchema,
} from '../../shared/operator-schema.ts';
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

function useSessionMutation<Input>(send: (input: Input) => Promise<SessionAnswer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (answer) => {
      // Another operator's data must never linger in the cache.
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'settings' });
      queryClient.setQueryData(sessionQueryKey, answer.user);
    },
  });
}

export function useSignIn() {
  return useSessionMutation((input: SignInInput) =>
    api.post(apiPaths.signIn, sessionAnswerSchema, input),
  );
}

export function useSignUp() {
  return useSessionMutation((input: SignUpInput) =>
    api.post(apiPaths.signUp, sessionAnswerSchema, input),
  );
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
