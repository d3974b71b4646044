import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SignInInput, SignUpInput } from '../../shared/auth-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import { api } from './api-client.ts';

export interface SessionUser {
  id: string;
  email: string;
}

interface SessionAnswer {
  user: SessionUser;
}

export const sessionQueryKey = ['session'] as const;

export function useSession() {
  return useQuery({
    queryKey: sessionQueryKey,
    queryFn: async () => {
      const answer = await api.get<SessionAnswer | null>(apiPaths.session);
      return answer ? { id: answer.user.id, email: answer.user.email } : null;
    },
    staleTime: 60_000,
  });
}

function useSessionMutation<Input>(send: (input: Input) => Promise<SessionAnswer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (answer) => {
      // Another operator's data must never linger in the cache.
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'settings' });
      queryClient.setQueryData(sessionQueryKey, { id: answer.user.id, email: answer.user.email });
    },
  });
}

export function useSignIn() {
  return useSessionMutation((input: SignInInput) =>
    api.post<SessionAnswer>(apiPaths.signIn, input),
  );
}

export function useSignUp() {
  return useSessionMutation((input: SignUpInput) =>
    api.post<SessionAnswer>(apiPaths.signUp, input),
  );
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<unknown>(apiPaths.signOut, {}),
    onSuccess: () => {
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'settings' });
      queryClient.setQueryData(sessionQueryKey, null);
    },
  });
}
