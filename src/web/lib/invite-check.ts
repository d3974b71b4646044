import { useEffect, useState } from 'react';
import * as z from 'zod/mini';
import { apiPaths } from '../../shared/paths.ts';
import { ApiError, api } from './api-client.ts';

/** What the server says of an invitation link: still good, or used, expired or mistyped. */
export type InviteCheck = 'checking' | 'open' | 'unknown';

/**
 * Asks once per token whether an invitation can still be used, so that nobody is welcomed in
 * by a link that was used, expired or mistyped (the pages that ask are outside the signed-in
 * app's query cache). Another failure counts as good: joining or registering says what went
 * wrong, if anything still does. Without a token there is nothing to ask. An answer is kept
 * with the token it is about, so that a page whose address changes never shows one token's
 * answer for another.
 */
export function useInviteCheck(token: string | null): InviteCheck {
  const [answer, setAnswer] = useState<{ token: string; check: InviteCheck } | null>(null);
  useEffect(() => {
    if (!token) return;
    let current = true;
    api
      .get(apiPaths.invite(token), z.null())
      .then(
        () => 'open' as const,
        (error: unknown) =>
          error instanceof ApiError && error.status === 404
            ? ('unknown' as const)
            : ('open' as const),
      )
      .then((check) => {
        if (current) setAnswer({ token, check });
      });
    return () => {
      current = false;
    };
  }, [token]);
  if (!token) return 'open';
  return answer?.token === token ? answer.check : 'checking';
}
