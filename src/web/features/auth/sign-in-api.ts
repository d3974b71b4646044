import * as z from 'zod/mini';
import type { SignInInput, SignUpInput } from '../../../shared/auth-schema.ts';
import { type SessionAnswer, sessionAnswerSchema } from '../../../shared/operator-schema.ts';
import { apiPaths } from '../../../shared/paths.ts';
import type {
  SecondFactorInput,
  secondFactorRequiredSchema as sharedSecondFactorRequiredSchema,
} from '../../../shared/two-factor-schema.ts';
import { api } from '../../lib/api-client.ts';
import { session, sessionUserOf } from '../../lib/session.ts';

// The requests that begin a session, apart from lib/session.ts: only the sign-in, sign-up and
// code pages need them, and the app shell that every page loads is at its size budget
// (docs/decisions/0013-bundle-budgets.md). Plain requests, not TanStack Query mutations: the
// pages before sign-in load without it. The signed-in part's query cache was emptied when the
// last operator left (app-layout.tsx), so nobody else's data is there to see.

/**
 * The shared schema's twin: importing two-factor-schema.ts would bring the account schemas it
 * builds on into the login page, which has no room for them. The type keeps the two alike.
 */
const secondFactorRequiredSchema: z.ZodMiniType<z.infer<typeof sharedSecondFactorRequiredSchema>> =
  z.object({ secondFactorRequired: z.literal(true) });

const signInAnswerSchema = z.union([sessionAnswerSchema, secondFactorRequiredSchema]);

function startSession(answer: SessionAnswer): void {
  session.set(sessionUserOf(answer));
}

/**
 * The password step. An account with two-factor sign-in on gets no session yet, only
 * `{ secondFactorRequired: true }` (and a short-lived cookie for the code step).
 */
export async function signIn(input: SignInInput) {
  const answer = await api.post(apiPaths.signIn, signInAnswerSchema, input);
  if ('user' in answer) startSession(answer);
  return answer;
}

/** The code step: a code from the authenticator app, or a backup code. */
export async function signInSecondFactor(input: SecondFactorInput): Promise<void> {
  startSession(await api.post(apiPaths.signInSecondFactor, sessionAnswerSchema, input));
}

/** `inviteToken`: an invitation to a book, which lets them in while registrations are closed. */
export async function signUp(input: SignUpInput & { inviteToken?: string }): Promise<void> {
  startSession(await api.post(apiPaths.signUp, sessionAnswerSchema, input));
}
