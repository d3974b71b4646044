import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import type { SignInInput, SignUpInput } from '../../../shared/auth-schema.ts';
import { type SessionAnswer, sessionAnswerSchema } from '../../../shared/operator-schema.ts';
import { apiPaths } from '../../../shared/paths.ts';
import type {
  SecondFactorInput,
  secondFactorRequiredSchema as sharedSecondFactorRequiredSchema,
} from '../../../shared/two-factor-schema.ts';
import { api } from '../../lib/api-client.ts';
import { sessionQueryKey, sessionUserOf } from '../../lib/session.ts';

// The requests that begin a session, apart from lib/session.ts: only the sign-in, sign-up and
// code pages need them, and the app shell that every page loads is at its size budget
// (docs/decisions/0013-bundle-budgets.md).

/**
 * The shared schema's twin: importing two-factor-schema.ts would bring the account schemas it
 * builds on into the login page, which has no room for them. The type keeps the two alike.
 */
const secondFactorRequiredSchema: z.ZodMiniType<z.infer<typeof sharedSecondFactorRequiredSchema>> =
  z.object({ secondFactorRequired: z.literal(true) });

const signInAnswerSchema = z.union([sessionAnswerSchema, secondFactorRequiredSchema]);

function startSession(queryClient: QueryClient, answer: SessionAnswer): void {
  // Another operator's data must never linger in the cache.
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'settings' });
  queryClient.setQueryData(sessionQueryKey, sessionUserOf(answer));
}

/**
 * The password step. An account with two-factor sign-in on gets no session yet, only
 * `{ secondFactorRequired: true }` (and a short-lived cookie for the code step).
 */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SignInInput) => api.post(apiPaths.signIn, signInAnswerSchema, input),
    onSuccess: (answer) => {
      if ('user' in answer) startSession(queryClient, answer);
    },
  });
}

/** The code step: a code from the authenticator app, or a backup code. */
export function useSignInSecondFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SecondFactorInput) =>
      api.post(apiPaths.signInSecondFactor, sessionAnswerSchema, input),
    onSuccess: (answer) => startSession(queryClient, answer),
  });
}

export function useSignUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SignUpInput) => api.post(apiPaths.signUp, sessionAnswerSchema, input),
    onSuccess: (answer) => startSession(queryClient, answer),
  });
}
