import { useEffect, useState } from 'react';
import * as z from 'zod/mini';
import { apiPaths } from '../../shared/paths.ts';
import { ApiError, api } from './api-client.ts';

/** What the server says of an invitation link: still good, or used, expired or mistyped. */
export type InviteCheck = 'checking' | 'open' | 'unknown';

/**
 * Asks once whether an invitation can still be used, so that nobody is welcomed in by a link
 * that was used, expired or mistyped (the pages that ask are outside the signed-in app's query
 * cache). Another failure counts as good: joining or registering says what went wrong, if
 * anything still does. Without a token there is nothing to ask.
 */
export function useInviteCheck(token: string | null): InviteCheck {
  const [check, setCheck] = useState<InviteCheck>(token ? 'checking' : 'open');
  useEffect(() => {
    if (!token) return;
    let current = true;
    setCheck('checking');
    api
      .get(apiPaths.invite(token), z.null())
      .then(
        () => 'open' as const,
        (error: unknown) =>
          error instanceof ApiError && error.status === 404
            ? ('unknown' as const)
            : ('open' as const),
      )
      .then((answer) => {
        if (current) setCheck(answer);
      });
    return () => {
      current = false;
    };
  }, [token]);
  return check;
}
