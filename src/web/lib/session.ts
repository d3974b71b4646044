import { useState } from 'react';
import * as z from 'zod/mini';
import { type SessionAnswer, sessionAnswerSchema } from '../../shared/operator-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import { ApiError, api, apiRequest, requestsAnswered } from './api-client.ts';
import { createResource, useResource } from './resource.ts';

/**
 * The signed-in operator: id, e-mail and role, and `twoFactorSetupRequired` while the
 * administrator requires two-factor sign-in and theirs is off (only its setup is open to them).
 */
export type SessionUser = SessionAnswer['user'] & Pick<SessionAnswer, 'twoFactorSetupRequired'>;

/** The session answer as the app keeps it: the operator, with the flag beside them. */
export function sessionUserOf(answer: SessionAnswer): SessionUser {
  return { ...answer.user, twoFactorSetupRequired: answer.twoFactorSetupRequired };
}

/** The last read found the session ended by the server (see sessionEndedElsewhere). */
let endedElsewhere = false;

/**
 * Who is signed in (null: nobody). Not in the query cache: the guards and the navbar need it
 * before anything else, and the pages before sign-in load without TanStack Query (decision
 * 0013). Whatever learns who it is now (a sign-in, a sign-out, an answer) sets it here.
 */

export const session = createResource<SessionUser | null>({
  async read() {
    const answer = await api.get(apiPaths.session, z.nullable(sessionAnswerSchema));
    const user = answer && sessionUserOf(answer);
    // Signed in a moment ago, and no longer, without signing out here: the session ended
    // (unused too long, at its maximum age, or from another device).
    endedElsewhere = user === null && Boolean(session.get().data);
    return user;
  },
  staleMs: 60_000,
});

/**
 * Whether the last read found this tab's session ended by the server rather than by signing
 * out here: the sign-in page then says why the tab is there.
 */
export function sessionEndedElsewhere(): boolean {
  return endedElsewhere && !session.get().data;
}

export function useSession() {
  return useResource(session);
}

/** Resolves when the page is being left (until `signal` says it no longer matters). */
function pageLeft(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    window.addEventListener('pagehide', () => resolve(), { once: true, signal });
  });
}

/** How long a sign-out waits for the answers already on their way (see requestsAnswered). */
const SIGN_OUT_WAITS_MS = 5_000;

/**
 * The guards leave the signed-in pages before the session ends, so that nothing they show (a
 * panel still loading its data) asks the server once it would be refused, and the session
 * ends only once what they asked before has its answer; the layout then forgets their data.
 * Should the sign-out fail, the session is still good and comes back.
 */
async function signOut(): Promise<void> {
  const previous = session.get().data;
  session.set(null);
  // Leaving the page (another address typed, the tab closed) ends the wait: the sign-out is
  // then sent at once, and kept alive past the page, or the session would stay signed in.
  const waiting = new AbortController();
  await Promise.race([requestsAnswered(SIGN_OUT_WAITS_MS), pageLeft(waiting.signal)]);
  waiting.abort();
  try {
    await apiRequest(
      'POST',
      apiPaths.signOut,
      z.object({ success: z.boolean() }),
      {},
      {
        keepalive: true,
      },
    );
  } catch (error) {
    if (previous) session.set(previous);
    throw error;
  }
  session.set(null);
}

/** Signing out, and whether it is under way (its button waits meanwhile). */
export function useSignOut() {
  const [isPending, setPending] = useState(false);
  return {
    isPending,
    async signOut() {
      setPending(true);
      try {
        await signOut();
      } finally {
        setPending(false);
      }
    },
  };
}

/**
 * A 403 means what this operator may do has changed since the session was read (their role,
 * or the administrator now requires two-factor sign-in): the session, read again, says what.
 */
export function rereadSessionOnRefusal(error: Error): void {
  if (error instanceof ApiError && error.status === 403) void session.reload();
}
